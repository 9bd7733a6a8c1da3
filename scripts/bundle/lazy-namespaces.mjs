// Namespace objects built when first needed, not at every start.
//
// esbuild gives every module that src/ loads with `await import()` (each command's file, the HTTP
// client, the writers...) a namespace object, and builds all of them at the top of the bundle:
//
//   var ns={};__export(ns,{run:()=>run,Help:()=>Help});
//
// that is ~60 objects and their getters, ~0.5 ms of every start, though a run loads a few of those
// modules. Each such module is lazy (esbuild's __esm wrapper: `init=__esm(()=>{...})`), and every use
// of its namespace calls that init first: `(init(),ns)`, or `(init(),__toCommonJS(ns))` for a
// require. So the __export call is moved to the start of the init: the object is the same, filled
// before anything can read it, and only for the modules a run loads.
//
// Only namespaces whose every use has that form are moved; the build fails if none is found (the
// form esbuild writes has changed: see the test of this file).

/** The bundle's code with its namespace objects filled by their modules' init functions. */
export function lazyNamespaces(code) {
  // __export: (target, all) => { for (var name in all) __defProp(target, name, { get: all[name], enumerable: true }) }
  const exportHelper =
    /(?:var |,)([\w$]+)=\(([\w$]+),([\w$]+)\)=>\{for\(var ([\w$]+) in \3\)[\w$]+\(\2,\4,\{get:\3\[\4\],enumerable:!0\}\)\}/.exec(code)?.[1];
  if (!exportHelper) throw new Error("lazy-namespaces: esbuild's __export helper was not found");
  const esc = (name) => name.replace(/\$/g, '\\$');
  const statements = new RegExp(`var ([\\w$]+)=\\{\\};${esc(exportHelper)}\\(\\1,\\{[^{}]*\\}\\);`, 'g');
  const moves = [];
  for (const match of code.matchAll(statements)) {
    const [statement, ns] = match;
    const uses = [...code.matchAll(new RegExp(`(?<![\\w$."'])${esc(ns)}(?![\\w$"'])`, 'g'))];
    const inits = new Set();
    let unpaired = 0;
    for (const use of uses) {
      if (use.index >= match.index && use.index < match.index + statement.length) continue; // the statement itself
      const before = code.slice(Math.max(0, use.index - 64), use.index);
      const paired = /\(([\w$]+)\(\),(?:[\w$]+\()?$/.exec(before);
      if (paired) inits.add(paired[1]);
      else unpaired++;
    }
    if (unpaired > 0 || inits.size !== 1) continue;
    const [init] = inits;
    // `init=__esm(()=>{`, or with names kept (BUILD_READABLE) `init=__esm({"src/x.ts"(){`.
    const definition = new RegExp(`[,\\s]${esc(init)}=[\\w$]+\\((?:\\(\\)=>\\{|\\{"[^"]*"\\(\\)\\{)("use strict";)?`, 'g');
    const found = [...code.matchAll(definition)];
    if (found.length !== 1) continue;
    // `var ns={};` stays where it is; the __export call after it moves.
    const call = statement.slice(`var ${ns}={};`.length);
    moves.push({ from: match.index + statement.length - call.length, call, into: found[0].index + found[0][0].length });
  }
  if (moves.length === 0) throw new Error('lazy-namespaces: no namespace object could be moved (has the form esbuild writes changed?)');
  // Applied from the end of the code backwards, so that earlier offsets stay true.
  const edits = moves.flatMap((m) => [
    { at: m.from, remove: m.call.length, insert: '' },
    { at: m.into, remove: 0, insert: m.call },
  ]);
  edits.sort((a, b) => b.at - a.at);
  let out = code;
  for (const e of edits) out = out.slice(0, e.at) + e.insert + out.slice(e.at + e.remove);
  return { code: out, moved: moves.length };
}

// The one wait of the tests: for a condition (a printed line, an open port, a file), never for a
// time. Checked every 10 ms; the deadline only bounds a failure, so it is generous: a loaded machine
// can take seconds to start node.

/** Resolves once `condition()` holds; fails naming `what` after `deadline` ms. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, deadline = 20_000): Promise<void> {
  const end = Date.now() + deadline;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out after ${deadline} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

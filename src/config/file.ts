// Reading config.json: plain fs + JSON.parse, because every API command reads it and start-up time is
// benchmarked (conf would pull in ajv). A file we cannot trust is a UsageError naming its path, and
// the caller never writes over it.
import { parse as losslessParse } from 'lossless-json';
import { UsageError } from '../base/errors';
import { isPlainObject } from '../base/plain-object';
import { readOwnFile } from '../base/own-file';
import { configFileRules } from './trust';
import type { Profile } from './types';
import { PROFILE_KEYS } from './types';

/** A profile as stored: the known settings, plus any keys a newer version wrote (kept on rewrite). */
export type StoredProfile = Profile & Record<string, unknown>;

/** The whole file. Unknown top-level keys are kept on rewrite too. */
export interface ConfigData extends Record<string, unknown> {
  profiles: Record<string, StoredProfile>;
}

export function emptyConfig(): ConfigData {
  return { profiles: Object.create(null) as Record<string, StoredProfile> };
}

/**
 * The parsed file; a missing (or blank) file is an empty config. Opened once and checked as opened
 * (src/base/own-file.ts, by configFileRules): a regular file, ours and private, at most 1 MiB.
 */
export function readConfigFile(path: string): ConfigData {
  const bytes = readOwnFile(path, configFileRules(path));
  return bytes === undefined ? emptyConfig() : parseConfigText(bytes.toString('utf8'), path);
}

function parseConfigText(raw: string, path: string): ConfigData {
  // A byte order mark, as some Windows editors save JSON with, is not an error.
  const text = stripBom(raw);
  if (text.trim() === '') return emptyConfig();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    // Node's message may quote the file's text, key included: say only where it broke.
    throw malformedConfig(path, `it is not valid JSON${where(text, (err as Error).message)}`);
  }
  if (!isPlainObject(data)) throw malformedConfig(path, 'it is not a JSON object');
  const profiles = data.profiles ?? {};
  if (!isPlainObject(profiles)) throw malformedConfig(path, '"profiles" is not an object');
  for (const [name, profile] of Object.entries(profiles)) {
    if (!isPlainObject(profile)) throw malformedConfig(path, `profile ${JSON.stringify(name)} is not an object`);
    for (const key of PROFILE_KEYS) {
      const value = profile[key];
      if (value !== undefined && typeof value !== 'string') {
        throw malformedConfig(path, `${key} of profile ${JSON.stringify(name)} is not a string`);
      }
    }
  }
  // No prototype: a profile named "__proto__" or "constructor" is then just a name.
  return { ...data, profiles: Object.assign(Object.create(null), profiles) as Record<string, StoredProfile> };
}

/** The profile's entry, own properties only (a profile named "constructor" must not find Object's). */
export function profileOf(data: ConfigData, name: string): StoredProfile | undefined {
  return Object.hasOwn(data.profiles, name) ? data.profiles[name] : undefined;
}

export function malformedConfig(path: string, why: string): UsageError {
  // One line, like every error; the file is left for the user to repair.
  return new UsageError(`malformed config file ${path}: ${why}; fix it or move it away (booking leaves it untouched).`);
}

function where(text: string, message: string): string {
  if (/end of JSON input/.test(message)) return ' (it ends too soon)';
  // Some of V8's messages carry no position; lossless-json's parser always does.
  const m = /at position (\d+)/.exec(message) ?? /at position (\d+)/.exec(losslessMessage(text));
  if (!m) return '';
  const before = text.slice(0, Number(m[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return ` (line ${line}, column ${column})`;
}

function losslessMessage(text: string): string {
  try {
    losslessParse(text);
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

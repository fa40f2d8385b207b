// Reads and writes an evidence bundle folder (the format is src/core/diagnose/bundle.ts). Writing never
// overwrites: the folder must not exist yet, so an export cannot clobber an earlier one or a folder the
// user picked by mistake. Reading caps each file, so a wrong folder (a disk image, a log directory) gives
// a clear error instead of filling memory.

import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUNDLE_FILES, BUNDLE_REPORT_FILE, EvidenceBundleError, evidenceFromBundle, type BundleFileKey, type BundleFiles, type BundleReading } from '../../core/diagnose/bundle';
import { errorText } from '../../core/util/errorText';

/** Larger than any real /metrics (a few MB) or goroutine dump (tens of MB on a busy kubelet). */
export const MAX_BUNDLE_FILE_BYTES = 256 * 1024 * 1024;

const KEYS = Object.keys(BUNDLE_FILES) as BundleFileKey[];

export async function writeEvidenceBundle(dir: string, files: BundleFiles): Promise<string[]> {
  try {
    await mkdir(dir, { recursive: false });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new EvidenceBundleError(`${dir} already exists: an evidence bundle is written to a new folder`);
    throw new EvidenceBundleError(`cannot create ${dir}: ${errorText(e)}`);
  }
  const written: string[] = [];
  for (const key of KEYS) {
    const text = files[key];
    if (text === undefined) continue;
    await writeFile(join(dir, BUNDLE_FILES[key]), text, { encoding: 'utf8', flag: 'wx' });
    written.push(BUNDLE_FILES[key]);
  }
  if (files.report !== undefined) {
    await writeFile(join(dir, BUNDLE_REPORT_FILE), files.report, { encoding: 'utf8', flag: 'wx' });
    written.push(BUNDLE_REPORT_FILE);
  }
  return written;
}

export async function readEvidenceBundle(dir: string): Promise<BundleReading> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new EvidenceBundleError(`no evidence bundle at ${dir}: the folder does not exist`);
    if (code === 'ENOTDIR') throw new EvidenceBundleError(`${dir} is a file: --evidence takes the bundle's folder`);
    throw new EvidenceBundleError(`cannot read ${dir}: ${errorText(e)}`);
  }
  const files: BundleFiles = {};
  const mtimes: Record<string, number> = {};
  let newest = 0;
  const known = new Set<string>(Object.values(BUNDLE_FILES));
  for (const key of KEYS) {
    const name = BUNDLE_FILES[key];
    if (!entries.includes(name)) continue;
    const path = join(dir, name);
    const info = await stat(path);
    if (!info.isFile()) throw new EvidenceBundleError(`${path} is not a file`);
    if (info.size > MAX_BUNDLE_FILE_BYTES) throw new EvidenceBundleError(`${path} is ${info.size} bytes, more than the ${MAX_BUNDLE_FILE_BYTES} a bundle file may have`);
    files[key] = await readFile(path, 'utf8');
    newest = Math.max(newest, info.mtimeMs);
    mtimes[name] = info.mtimeMs;
  }
  if (Object.keys(files).length === 0) {
    throw new EvidenceBundleError(`${dir} holds none of the evidence bundle's files (${[...known].join(', ')})`);
  }
  // Modification times are one clue among others: a copy resets them all (core/diagnose/clock).
  const reading = evidenceFromBundle(files, new Date(newest).toISOString(), mtimes);
  // report.md is what the bundle's writer concluded: the checks judge the evidence again, not that.
  const ignored = entries.filter((e) => !known.has(e) && e !== BUNDLE_REPORT_FILE);
  if (ignored.length > 0) reading.notes.push(`ignored (not bundle files): ${ignored.join(', ')}`);
  return reading;
}

/**
 * docs/architecture.md stays short and its folder table stays true to the tree: every folder a row names exists,
 * and every top-level source folder and every immediate subfolder of domain/, platform/, api/ and test/ has a row.
 * A folder on disk with no file in it (hidden folders aside) is not part of the tree: git keeps no empty folder, so
 * one left behind by a move is absent from every checkout but the one it was left in.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const DOC = 'docs/architecture.md';
const doc = fs.readFileSync(path.join(ROOT, DOC), 'utf8');

/** The most lines the document may have: it states today's rules, the depth is in the documents it links. */
const MAX_LINES = 160;
const TOP_LEVEL = [
  'activities',
  'api',
  'bench',
  'cli',
  'docs',
  'domain',
  'entities',
  'platform',
  'scripts',
  'test',
  'workflows',
  'worker',
];
/** The folders whose immediate subfolders each have a row. */
const LISTED_WITHIN = ['domain', 'platform', 'api', 'test'];

/** The folders the table's rows name: a first cell such as `domain/jobs/`, without its trailing slash. */
function tableFolders(): string[] {
  return [...doc.matchAll(/^\| `([^`]+)\/` \|/gm)].map((m) => m[1]);
}

function holdsAFile(dir: string): boolean {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .some((entry) => entry.isFile() || (entry.isDirectory() && holdsAFile(path.join(dir, entry.name))));
}

/** The immediate subfolders of `folder` on disk, hidden and empty ones aside, as paths from the root. */
function subfolders(folder: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => `${folder}/${entry.name}`)
    .filter((sub) => holdsAFile(path.join(ROOT, sub)));
}

describe('docs/architecture.md', () => {
  it(`has at most ${MAX_LINES} lines`, () => {
    expect(doc.split('\n').length).toBeLessThanOrEqual(MAX_LINES);
  });

  it('has a folder table with one row per folder, none twice', () => {
    const folders = tableFolders();
    expect(folders.length).toBeGreaterThan(TOP_LEVEL.length);
    expect(folders.filter((folder, i) => folders.indexOf(folder) !== i)).toEqual([]);
  });

  it('names in its folder table only folders that exist', () => {
    const missing = tableFolders().filter((folder) => {
      const full = path.join(ROOT, folder);
      return !fs.existsSync(full) || !fs.statSync(full).isDirectory();
    });
    expect(missing).toEqual([]);
  });

  it('has a row for every top-level source folder', () => {
    const rows = new Set(tableFolders());
    expect(TOP_LEVEL.filter((folder) => !rows.has(folder))).toEqual([]);
  });

  it('has a row for every immediate subfolder of domain/, platform/, api/ and test/ on disk', () => {
    const rows = new Set(tableFolders());
    const onDisk = LISTED_WITHIN.flatMap(subfolders);
    expect(onDisk.length).toBeGreaterThan(LISTED_WITHIN.length);
    expect(onDisk.filter((folder) => !rows.has(folder))).toEqual([]);
  });
});

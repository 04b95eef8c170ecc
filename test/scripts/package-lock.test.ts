/**
 * The committed lock file is what `npm install` leaves: otherwise the first `npm start` of a clean
 * clone (scripts/lib.sh install_node_modules) rewrites it, and `git status` shows it modified. npm records every
 * optional dependency, other platforms' binaries included (`@swc/core-darwin-arm64`…), and the root's ranges
 * as package.json states them.
 */
import { readFileSync } from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

interface LockEntry {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** Where npm would find `name` from the package at `location`: its own node_modules, then each parent's. */
function resolves(packages: Record<string, LockEntry>, location: string, name: string): boolean {
  for (let at = location; ; at = at.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
    if (`${at ? `${at}/` : ''}node_modules/${name}` in packages) return true;
    if (at === '') return false;
  }
}

describe('package-lock.json is what npm install leaves', () => {
  const lock = read('package-lock.json') as { packages: Record<string, LockEntry> };
  const pkg = read('package.json') as LockEntry;

  it("records package.json's dependencies as package.json states them", () => {
    const root = lock.packages[''];
    expect(root.dependencies).toEqual(pkg.dependencies);
    expect(root.devDependencies).toEqual(pkg.devDependencies);
  });

  it("records every optional dependency of every package, other platforms' included", () => {
    const missing = Object.entries(lock.packages).flatMap(([location, entry]) =>
      Object.keys(entry.optionalDependencies ?? {})
        .filter((name) => !resolves(lock.packages, location, name))
        .map((name) => `${location || '(root)'} -> ${name}`),
    );
    expect(missing).toEqual([]);
  });
});

/**
 * docs/jobs.md describes the job machinery as built. The kinds its table names are the kinds of
 * the code, with their workflows; every path its recipe for a new job names exists (a path with a placeholder,
 * `domain/<area>/…`, down to its folder), and every name it places in a file is in that file.
 */
import * as fs from 'fs';
import * as path from 'path';
import { JOB_KINDS } from '../../domain/jobs/kinds';

const ROOT = path.join(__dirname, '..', '..');
const doc = fs.readFileSync(path.join(ROOT, 'docs', 'jobs.md'), 'utf8');

/** The text of the section under `## <title>`, up to the next one. */
function section(title: string): string {
  const start = doc.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/jobs.md has no section "${title}"`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

const recipe = section('How to add a job kind');

describe('docs/jobs.md and the job machinery agree', () => {
  it('the table of job kinds names every kind of the code, with its workflow, and no other', () => {
    const rows = [...section('The job machinery').matchAll(/^\| `([a-z-]+)` \| `(\w+)` \|/gm)];
    expect(rows.map(([, kind, workflow]) => `${kind} ${workflow}`).sort()).toEqual(
      JOB_KINDS.map((kind) => `${kind.name} ${kind.workflow}`).sort(),
    );
  });

  it('every path the recipe names exists, and a placeholder path its folder', () => {
    const paths = [...recipe.matchAll(/`((?:api|domain|entities|workflows|activities|test)\/[^`\s]*)`/g)].map(
      (m) => m[1],
    );
    expect(paths.length).toBeGreaterThan(10);
    const missing = paths.filter((named) => {
      const concrete = named.split('<')[0];
      return !fs.existsSync(path.join(ROOT, concrete.includes('<') ? path.dirname(concrete) : concrete));
    });
    expect(missing).toEqual([]);
  });

  it('every name the recipe places in a file is in that file', () => {
    const placed = [...recipe.matchAll(/`(\w+)`(?: in\s+| \()`([\w./-]+\.ts)`/g)].map(([, name, file]) => ({
      name,
      file,
    }));
    expect(placed.map((p) => p.name)).toEqual(
      expect.arrayContaining(['JOB_KIND_NAMES', 'KINDS_BY_WORKFLOW', 'KIND_ACTIVITIES', 'SCHEDULES', 'JOB_RECORDERS']),
    );
    const absent = placed.filter(({ name, file }) => !fs.readFileSync(path.join(ROOT, file), 'utf8').includes(name));
    expect(absent).toEqual([]);
  });
});

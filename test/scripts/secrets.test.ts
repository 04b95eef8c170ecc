/** scripts/lib.sh generates the signing secrets once, into a file only its owner reads, and reuses them. */
import { execFileSync } from 'child_process';
import { mkdtempSync, rmSync, statSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

const LIB = path.join(__dirname, '..', '..', 'scripts', 'lib.sh');

/** The secrets load_secrets exports, given `file` and these variables in the environment. */
function loadSecrets(
  file: string,
  env: Record<string, string> = {},
): { BLOB_URL_SECRET: string; CURSOR_SECRET: string } {
  const clean = { ...process.env, ...env };
  for (const name of ['BLOB_URL_SECRET', 'CURSOR_SECRET']) if (!(name in env)) delete clean[name];
  const out = execFileSync(
    'bash',
    [
      '-c',
      `source "${LIB}" && load_secrets "$1" 2>/dev/null && printf '%s\\n%s' "\${BLOB_URL_SECRET-}" "\${CURSOR_SECRET-}"`,
      'bash',
      file,
    ],
    { env: clean, encoding: 'utf8' },
  );
  const [BLOB_URL_SECRET, CURSOR_SECRET] = out.split('\n');
  return { BLOB_URL_SECRET, CURSOR_SECRET };
}

describe('load_secrets (scripts/lib.sh)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates two different random secrets once, readable by the owner only, and reuses them', () => {
    const file = path.join(dir, 'secrets.env');
    const first = loadSecrets(file);
    expect(first.BLOB_URL_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.CURSOR_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.CURSOR_SECRET).not.toBe(first.BLOB_URL_SECRET);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecrets(file)).toEqual(first);
    // another data folder, other secrets
    expect(loadSecrets(path.join(dir, 'other.env')).CURSOR_SECRET).not.toBe(first.CURSOR_SECRET);
  });

  it('keeps a secret already set in the environment', () => {
    const file = path.join(dir, 'secrets.env');
    const generated = loadSecrets(file);
    const own = 'o'.repeat(40);
    expect(loadSecrets(file, { CURSOR_SECRET: own })).toEqual({
      BLOB_URL_SECRET: generated.BLOB_URL_SECRET,
      CURSOR_SECRET: own,
    });
  });

  it('gives no value to a secret set as NAME_FILE (the service refuses both)', () => {
    const file = path.join(dir, 'secrets.env');
    expect(loadSecrets(file, { CURSOR_SECRET_FILE: path.join(dir, 'cursor') }).CURSOR_SECRET).toBe('');
    const defaults = execFileSync(
      'bash',
      ['-c', `source "${LIB}" && printf '%s|%s' "\${MYSQL_PASSWORD-unset}" "\${S3_SECRET_ACCESS_KEY-unset}"`],
      {
        env: {
          ...process.env,
          MYSQL_PASSWORD: '',
          MYSQL_PASSWORD_FILE: '/run/secrets/mysql',
          S3_SECRET_ACCESS_KEY: '',
        },
        encoding: 'utf8',
      },
    );
    expect(defaults).toBe('|docssecret123');
  });
});

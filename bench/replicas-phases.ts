/**
 * The replicas benchmark's checks that act on the replicas, each returning its figures and whether it held:
 * a token revoked through one API refused by the other within TOKEN_CACHE_MS; a worker killed with SIGKILL in the
 * middle of an import, the import finished by the other; one token driven past its limit through both APIs; and a
 * burst of comments past saturation, retried after each 503's Retry-After, every one stored exactly once.
 */
import { randomBytes } from 'crypto';
import type { DataSource } from 'typeorm';
import { contentImportJob } from '../domain/imports/import-job';
import { jobWorkflowId } from '../domain/jobs/contracts';
import { ImportRun } from '../entities/ImportRun';
import type { TemporalGateway } from '../platform/temporal/gateway';
import { type Answer, burst, byStatus, type Replicas } from './replicas-load';
import type { Member } from './replicas-mixed';
import type { WorkerProcess } from './worker-process';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ok = (a: Answer) => a.status >= 200 && a.status < 300;

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

interface RevocationFigures {
  /** ms from the revocation's answer to the other replica's first 401 */
  refusedAfterMs: number | null;
  /** ms from the revocation's answer to the latest request the other replica still accepted */
  lastAcceptedAtMs: number | null;
  sameReplicaStatus: number;
  probes: number;
  ok: boolean;
}

/**
 * A token issued and revoked through replica 0, used on replica 1 before (so its cache holds it) and after: every
 * request sent later than `cacheMs` after the revocation answered must be refused, and replica 0 refuses at once.
 */
export async function revocation(replicas: Replicas, user: Member, cacheMs: number): Promise<RevocationFigures> {
  const op = 'revocation';
  const issued = await replicas.call(0, op, user.token, 'POST', '/v1/user/tokens', { label: 'replicas' });
  if (issued.status !== 201) throw new Error(`issuing a token answered ${issued.status}`);
  const secret: string = issued.json.token;
  for (let i = 0; i < 5; i++) {
    const used = await replicas.call(1, op, secret, 'GET', '/v1/user');
    if (used.status !== 200) throw new Error(`the new token on replica 1 answered ${used.status}`);
  }
  const revoked = await replicas.call(0, op, user.token, 'DELETE', `/v1/user/tokens/${issued.json.id}`);
  if (revoked.status !== 204) throw new Error(`revoking answered ${revoked.status}`);
  const at = Date.now();
  const same = await replicas.call(0, op, secret, 'GET', '/v1/user');
  const probes: Answer[] = [];
  while (Date.now() - at < cacheMs + 500) {
    probes.push(await replicas.call(1, op, secret, 'GET', '/v1/user'));
    await sleep(20);
  }
  const accepted = probes.filter(ok).map((a) => a.sentAt - at);
  const refused = probes.filter((a) => a.status === 401).map((a) => a.sentAt - at);
  const late = probes.filter((a) => a.sentAt - at > cacheMs && a.status !== 401);
  return {
    refusedAfterMs: refused.length ? Math.min(...refused) : null,
    lastAcceptedAtMs: accepted.length ? Math.max(...accepted) : null,
    sameReplicaStatus: same.status,
    probes: probes.length,
    ok: same.status === 401 && late.length === 0 && refused.length > 0,
  };
}

interface WorkerLossFigures {
  importRunId: string;
  killedPid: number;
  /** the activity the killed worker was running */
  activity: string;
  killedAfterStartMs: number;
  /** from the kill to the run's end */
  finishedAfterKillMs: number;
  status: string;
  importedResources: number;
  totalResources: number;
  /** the identities (pid@host) of the workers that started the run's activities, in order */
  activityWorkers: string[];
  ok: boolean;
}

/**
 * An import of a slow website (each page answers after a delay) into a space of its own (it may wait minutes behind the
 * mixed load's jobs on a busy machine); once one of its activities
 * runs on a worker, that worker is killed with SIGKILL. The run must complete on the other worker, every page once.
 */
export async function workerLoss(
  replicas: Replicas,
  ds: DataSource,
  temporal: TemporalGateway,
  owner: Member,
  organizationId: string,
  siteUrl: string,
  workers: WorkerProcess[],
): Promise<WorkerLossFigures & { killed: WorkerProcess; killedAt: number }> {
  const op = 'worker-loss';
  const space = await replicas.call(0, op, owner.token, 'POST', `/v1/orgs/${organizationId}/spaces`, {
    title: 'Slow import',
  });
  const spaceId = space.json.id as string;
  const asked = await replicas.call(1, op, owner.token, 'POST', `/v1/spaces/${spaceId}/content/import`, {
    url: `${siteUrl}/site/`,
    source: 'website',
  });
  if (asked.status !== 202 && asked.status !== 201) throw new Error(`the slow import answered ${asked.status}`);
  const run = await until('the slow import starting', 300_000, () =>
    ds.manager.findOne(ImportRun, { where: { spaceId } }).then((r) => (r?.process.startedAt ? r : null)),
  );
  const handle = (await temporal.getClient()).workflow.getHandle(
    jobWorkflowId(contentImportJob, run.id, run.process.generation),
  );
  // a step running on a worker for a second already: the staging of a batch of pages, the import's long step
  const pending = await until('an activity of the slow import running on a worker', 300_000, async () => {
    const activities = (await handle.describe()).raw.pendingActivities ?? [];
    return activities.find((a) => {
      const started = a.lastStartedTime;
      const startedMs = started ? Number(started.seconds) * 1000 + (started.nanos ?? 0) / 1e6 : Infinity;
      return a.lastWorkerIdentity && Date.now() - startedMs > 1000;
    });
  });
  const identity = String(pending.lastWorkerIdentity);
  const killed = workers.find((w) => identity.startsWith(`${w.child.pid}@`));
  if (!killed) throw new Error(`no worker of the benchmark is ${identity}`);
  const killedAt = Date.now();
  killed.child.kill('SIGKILL');
  const done = await until('the slow import ending', 300_000, () =>
    ds.manager.findOneBy(ImportRun, { id: run.id }).then((r) => (r?.process.finishedAt ? r : null)),
  );
  const history = await handle.fetchHistory();
  const activityWorkers = (history.events ?? [])
    .map((e) => e.activityTaskStartedEventAttributes?.identity)
    .filter((i): i is string => !!i);
  const status = done.process.errorCode ? `failed ${done.process.errorCode}` : 'succeeded';
  const finishedOn = activityWorkers.at(-1) ?? '';
  return {
    importRunId: run.id,
    killedPid: killed.child.pid!,
    activity: String(pending.activityType?.name),
    killedAfterStartMs: killedAt - run.process.startedAt!.getTime(),
    finishedAfterKillMs: done.process.finishedAt!.getTime() - killedAt,
    status,
    importedResources: done.importedResources,
    totalResources: done.totalResources,
    activityWorkers,
    ok:
      status === 'succeeded' &&
      done.importedResources === done.totalResources &&
      done.importedResources > 0 &&
      finishedOn !== '' &&
      !finishedOn.startsWith(`${killed.child.pid}@`),
    killed,
    killedAt,
  };
}

interface RateLimitFigures {
  limit: number;
  lease: number;
  sent: number;
  accepted: number;
  refused: number;
  /** 429s without Retry-After, and answers neither 2xx nor 429 */
  other: Record<string, number>;
  acceptedByReplica: number[];
  /** the fewest 2xx the limit allows: each replica may lose the unspent part of one block */
  atLeast: number;
  ok: boolean;
}

/**
 * One token (of a user who uses no other, on a path that names no organization: only its token's bucket counts)
 * driven past its limit through both replicas at once, within one window: the 2xx must not exceed the limit, and
 * fall short of it by at most each replica's unspent block.
 */
export async function rateLimit(
  replicas: Replicas,
  token: string,
  limit: number,
  lease: number,
): Promise<RateLimitFigures> {
  const op = 'rate-limit';
  const probe = await replicas.call(0, op, token, 'GET', '/v1/user');
  const left = Number(/"token";r=\d+;t=(\d+)/.exec(probe.rateLimit ?? '')?.[1] ?? 0);
  // the burst takes a few seconds: started in a fresh window when little of this one is left
  let counted = 1;
  if (left < 30) {
    await sleep((left + 1) * 1000);
    counted = 0;
  }
  const from = replicas.answers.length;
  const sent = limit + Math.max(200, limit / 10);
  await burst(sent, 16, (n) => replicas.call(n, op, token, 'GET', '/v1/user'));
  const answers = replicas.since(from);
  const accepted = answers.filter(ok);
  const refused = answers.filter((a) => a.status === 429 && a.retryAfter);
  const other = byStatus(answers.filter((a) => !ok(a) && !(a.status === 429 && a.retryAfter)));
  const atLeast = limit - replicas.bases.length * (lease - 1);
  const total = accepted.length + counted;
  return {
    limit,
    lease,
    sent,
    accepted: total,
    refused: refused.length,
    other,
    acceptedByReplica: replicas.bases.map((_, i) => accepted.filter((a) => a.replica === i).length),
    atLeast,
    ok: total <= limit && total >= atLeast && Object.keys(other).length === 0,
  };
}

interface SaturationFigures {
  spaceId: string;
  comments: number;
  concurrency: number;
  seconds: number;
  statuses: Record<string, number>;
  /** 5xx other than 503 with Retry-After, and connection failures */
  forbidden: number;
  retried: number;
  /** comments whose body is stored other than exactly once */
  notOnce: number;
  openCommentsCount: number;
  rows: number;
  ok: boolean;
}

/**
 * `count` comments posted on one space at `concurrency` at once through both replicas, by every member. A 503 (or
 * 429) is sent again after its Retry-After, as a client would; afterwards each comment must be stored exactly once
 * and the space's open comment counter must equal its rows.
 */
export async function saturation(
  replicas: Replicas,
  ds: DataSource,
  members: Member[],
  organizationId: string,
  count: number,
  concurrency: number,
): Promise<SaturationFigures> {
  const space = await replicas.call(0, 'setup', members[0].token, 'POST', `/v1/orgs/${organizationId}/spaces`, {
    title: 'Burst',
  });
  const spaceId = space.json.id as string;
  const tag = randomBytes(4).toString('hex');
  const from = replicas.answers.length;
  const started = Date.now();
  let retried = 0;
  await burst(count, concurrency, async (n) => {
    const send = (op: string) =>
      replicas.call(n, op, members[n % members.length].token, 'POST', `/v1/spaces/${spaceId}/comments`, {
        body: { markdown: `Burst ${tag} ${n}` },
      });
    let answer = await send('burst');
    while ((answer.status === 503 || answer.status === 429) && answer.retryAfter) {
      retried++;
      await sleep(Number(answer.retryAfter) * 1000);
      answer = await send('burst-retry');
    }
  });
  const seconds = (Date.now() - started) / 1000;
  const answers = replicas.since(from);
  const forbidden = answers.filter((a) => a.status === 0 || (a.status >= 500 && !(a.status === 503 && a.retryAfter)));
  const stored: Array<{ body: string; n: string }> = await ds.query(
    'SELECT body, COUNT(*) AS n FROM comments WHERE spaceId = ? GROUP BY body',
    [spaceId],
  );
  const once = new Set(stored.filter((r) => Number(r.n) === 1).map((r) => r.body.trim()));
  const notOnce = Array.from({ length: count }, (_, n) => `Burst ${tag} ${n}`).filter((b) => !once.has(b)).length;
  const [row] = await ds.query(
    `SELECT openCommentsCount, (SELECT COUNT(*) FROM comments WHERE spaceId = ? AND status = 'open') AS \`rows\` FROM spaces WHERE id = ?`,
    [spaceId, spaceId],
  );
  const rows = Number(row.rows);
  return {
    spaceId,
    comments: count,
    concurrency,
    seconds: Math.round(seconds * 10) / 10,
    statuses: byStatus(answers),
    forbidden: forbidden.length,
    retried,
    notOnce,
    openCommentsCount: Number(row.openCommentsCount),
    rows,
    ok: forbidden.length === 0 && notOnce === 0 && rows === count && Number(row.openCommentsCount) === rows,
  };
}

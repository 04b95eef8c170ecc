/**
 * The integration-dispatch kind's rules that no API answer shows: the back-off with jitter between
 * delivery attempts, and the retention (ended events expire; an unpublished integration's tombstone
 * goes with its events, blobs and tokens once none of its deliveries is pending). The retention runs
 * in a transaction rolled back at the end: it is global, and other test files' tombstones must stay.
 */
import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { newId } from '../../domain/ids';
import { decideAfterAttempt, deliveryUrl, retryAfterMs, retryDelayMs } from '../../domain/integrations/delivery';
import { integrationDispatchJob } from '../../domain/integrations/dispatch-job';
import { eventEnvironment } from '../../domain/integrations/environment';
import { issueIntegrationTokens } from '../../domain/integrations/tokens';
import { ApiToken } from '../../entities/ApiToken';
import { Integration } from '../../entities/Integration';
import { IntegrationEvent } from '../../entities/IntegrationEvent';
import { idleJobState } from '../../entities/JobState';
import { Organization } from '../../entities/Organization';
import { loadConfig } from '../../platform/config';
import { createDataSource } from '../../platform/db/data-source';
import { createBlobStore } from '../../platform/storage';
import { createOrg } from '../factories';
import { insertContentInstallation, insertInstallation, insertIntegration } from '../support/integration-rows';

const config = loadConfig();
let ds: DataSource;

beforeAll(async () => {
  ds = await createDataSource(config).initialize();
});

afterAll(async () => {
  await ds.destroy();
});

describe('delivery URL', () => {
  it("appends /v1 to the tunnel's path, before its query string", () => {
    expect(deliveryUrl('https://tunnel.example.test')).toBe('https://tunnel.example.test/v1');
    expect(deliveryUrl('https://tunnel.example.test/hook/')).toBe('https://tunnel.example.test/hook/v1');
    expect(deliveryUrl('https://tunnel.example.test/hook?token=abc&x=1')).toBe(
      'https://tunnel.example.test/hook/v1?token=abc&x=1',
    );
  });
});

describe('back-off', () => {
  const policy = { ...config.integrationDispatch, backoffMs: 1000, maxBackoffMs: 5000 };

  it('doubles from the base with each attempt, up to the ceiling, jittered between half and all of it', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(policy, n, () => 1))).toEqual([1000, 2000, 4000, 5000, 5000]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(policy, n, () => 0))).toEqual([500, 1000, 2000, 2500, 2500]);
    for (let i = 0; i < 100; i++) {
      const delay = retryDelayMs(policy, 2);
      expect(delay).toBeGreaterThanOrEqual(1000);
      expect(delay).toBeLessThanOrEqual(2000);
    }
  });
});

describe('Retry-After', () => {
  const policy = { ...config.integrationDispatch, backoffMs: 1000, maxBackoffMs: 60_000, maxAttempts: 4 };
  const now = new Date('2026-11-23T12:00:00.000Z');
  const tooMany = (retryAfter?: number) => ({
    url: 'https://t.example/v1',
    status: 429,
    durationMs: 3,
    error: 'answered HTTP 429',
    retryable: true,
    ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
  });

  it('reads delay-seconds and an HTTP date; anything else is ignored', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Mon, 23 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 23 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect([retryAfterMs('soon', now), retryAfterMs('-5', now), retryAfterMs(undefined, now)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('lengthens the back-off to what the tunnel asked, never beyond the longest back-off, and never shortens it', () => {
    expect(decideAfterAttempt(policy, 1, tooMany(30_000), () => 1)).toEqual({ state: 'retry', afterMs: 30_000 });
    expect(decideAfterAttempt(policy, 1, tooMany(3_600_000), () => 1)).toEqual({ state: 'retry', afterMs: 60_000 });
    expect(decideAfterAttempt(policy, 3, tooMany(10), () => 1)).toEqual({ state: 'retry', afterMs: 4000 });
    expect(decideAfterAttempt(policy, 1, tooMany(), () => 1)).toEqual({ state: 'retry', afterMs: 1000 });
    expect(decideAfterAttempt(policy, 4, tooMany(1000), () => 1)).toMatchObject({ state: 'failed' });
  });
});

describe('retention', () => {
  const ROLLBACK = new Error('rollback');

  function eventRow(
    integration: Integration,
    installationId: string,
    status: IntegrationEvent['status'],
    createdAt: Date,
  ): IntegrationEvent {
    const id = newId();
    return Object.assign(new IntegrationEvent(), {
      id,
      integrationId: integration.id,
      installationId,
      organizationId: integration.ownerOrganizationId,
      spaceId: null,
      siteId: null,
      type: 'installation_setup',
      payload: { eventId: id, type: 'installation_setup', installationId, status: 'active' },
      status,
      endpointUrl: status === 'pending' ? 'https://tunnel.example.com' : null,
      trace: [],
      signingSecret: 'secret',
      createdAt,
      dispatch: status === 'pending' ? { ...idleJobState(), generation: 1, requestedAt: createdAt } : idleJobState(),
    });
  }

  it('removes ended events past the retention, keeps pending and recent ones; a tombstone goes once no delivery is pending', async () => {
    const { org } = await createOrg(ds);
    const blobs = createBlobStore(config);
    const live = await insertIntegration(ds, org.id, []);
    const tombstone = await insertIntegration(ds, org.id, [], { iconKey: `integrations/${newId()}/icon.png` });
    await blobs.put(tombstone.scriptKey, Buffer.from('export default {};'), 'text/javascript');
    await blobs.put(tombstone.iconKey!, Buffer.from('png'), 'image/png');
    const installation = await insertInstallation(ds, live, org.id);
    await issueIntegrationTokens(ds.manager, config, { integration: tombstone });
    const now = new Date();
    const old = new Date(now.getTime() - (config.integrationDispatch.retentionSeconds + 60) * 1000);
    const oldEnded = eventRow(live, installation.id, 'failed', old);
    const oldPending = eventRow(live, installation.id, 'pending', old);
    const recentEnded = eventRow(live, installation.id, 'success', now);
    const tombstonePending = eventRow(tombstone, installation.id, 'pending', now);
    await ds.manager.insert(
      IntegrationEvent,
      [oldEnded, oldPending, recentEnded, tombstonePending].map((e) => ({ ...e })) as never,
    );
    await ds.manager.update(Integration, { id: tombstone.id }, { deletedAt: now });

    await ds
      .transaction(async (db) => {
        const expire = () => integrationDispatchJob.retention!.expire(db, config, now, blobs);
        expect(await expire()).toBeGreaterThanOrEqual(1);
        const left = async (events: IntegrationEvent[]) =>
          (await Promise.all(events.map((e) => db.existsBy(IntegrationEvent, { id: e.id })))).map(Boolean);
        expect(await left([oldEnded, oldPending, recentEnded, tombstonePending])).toEqual([false, true, true, true]);
        // the tombstone waits for its pending delivery
        expect(await db.existsBy(Integration, { id: tombstone.id })).toBe(true);

        await db.update(IntegrationEvent, { id: tombstonePending.id }, { status: 'success' });
        await expire();
        expect(await db.existsBy(Integration, { id: tombstone.id })).toBe(false);
        expect(await db.existsBy(IntegrationEvent, { integrationId: tombstone.id })).toBe(false);
        expect(await db.existsBy(ApiToken, { integrationId: tombstone.id })).toBe(false);
        expect(await db.existsBy(Integration, { id: live.id })).toBe(true);
        await expect(blobs.read(tombstone.scriptKey)).rejects.toThrow();
        await expect(blobs.read(tombstone.iconKey!)).rejects.toThrow();
        throw ROLLBACK;
      })
      .catch((err) => {
        if (err !== ROLLBACK) throw err;
      });
  });
});

describe('environment', () => {
  function spaceEvent(integration: Integration, installationId: string, spaceId: string): IntegrationEvent {
    const id = newId();
    return Object.assign(new IntegrationEvent(), {
      id,
      integrationId: integration.id,
      installationId,
      organizationId: integration.ownerOrganizationId,
      spaceId,
      siteId: null,
      type: 'space_content_updated',
      payload: { eventId: id, type: 'space_content_updated', installationId, spaceId },
      status: 'pending',
      endpointUrl: 'https://tunnel.example.com',
      trace: [],
      signingSecret: 'secret',
      createdAt: new Date(),
      dispatch: idleJobState(),
    });
  }

  it('sends no null anywhere: the owner without a defaultRole or hostname, an integration without an icon, leave those fields out as the API does', async () => {
    const fx = await createOrg(ds);
    await ds.manager.update(Organization, { id: fx.org.id }, { defaultRole: null, hostname: null, logoURL: null });
    const integration = await insertIntegration(ds, fx.org.id, ['space:content:read']);
    const installation = await insertInstallation(ds, integration, fx.org.id, { spaces: 'all' });
    const environment = await eventEnvironment(ds.manager, config, spaceEvent(integration, installation.id, newId()));
    expect(pathsOfNulls(environment)).toEqual([]);
    expect(environment.integration.owner).not.toHaveProperty('defaultRole');
    expect(environment.integration.owner).not.toHaveProperty('hostname');
    expect(environment.integration.owner.urls).not.toHaveProperty('logo');
    expect(environment.integration.urls).not.toHaveProperty('icon');
    expect(environment.integration.owner).toMatchObject({ object: 'organization', id: fx.org.id });
  });

  it("presents a space covered by `space_selection: all` as installed, with no configuration of its own; under `selected` only a space's own row", async () => {
    const fx = await createOrg(ds);
    const integration = await insertIntegration(ds, fx.org.id, ['space:content:read']);
    const all = await insertInstallation(ds, integration, fx.org.id, { spaces: 'all' });
    const spaceId = newId();
    const covered = await eventEnvironment(ds.manager, config, spaceEvent(integration, all.id, spaceId));
    expect(covered.spaceInstallation).toMatchObject({
      integration: integration.name,
      installation: all.id,
      status: 'active',
      configuration: {},
      externalIds: [],
      space: spaceId,
    });
    expect(covered).not.toHaveProperty('siteInstallation');

    const other = await insertIntegration(ds, fx.org.id, ['space:content:read']);
    const selected = await insertInstallation(ds, other, fx.org.id, { spaces: 'selected' });
    expect(await eventEnvironment(ds.manager, config, spaceEvent(other, selected.id, spaceId))).not.toHaveProperty(
      'spaceInstallation',
    );
    await insertContentInstallation(ds, selected, { spaceId });
    expect(
      (await eventEnvironment(ds.manager, config, spaceEvent(other, selected.id, spaceId))).spaceInstallation,
    ).toMatchObject({ installation: selected.id, space: spaceId });
  });
});

/** Where `value` holds a null, as dotted paths. */
function pathsOfNulls(value: unknown, at = '$'): string[] {
  if (value === null) return [at];
  if (typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) =>
    pathsOfNulls(inner, `${at}.${key}`),
  );
}

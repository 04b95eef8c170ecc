/**
 * Integration scopes do not widen on republish. The case: an integration published with no scopes,
 * installed by another organization on all of its spaces, then republished asking for `space:content:write`. The installation keeps what its
 * organization granted until one of its admins repeats the install call; a republish that drops a scope
 * applies at once, and asking for it again waits for approval again.
 */

import { issueIntegrationTokens } from '../../domain/integrations/tokens';
import { Integration } from '../../entities/Integration';
import { IntegrationEvent } from '../../entities/IntegrationEvent';
import { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { inTransaction } from '../../platform/db/transactions';
import { addMember, createOrg, OrgFixture, unique } from '../factories';
import { Json, newSpace } from '../support/api';
import { useServer } from '../support/server';

const server = useServer();

async function publish(owner: OrgFixture, name: string, scopes: string[]): Promise<void> {
  await server
    .as(owner.admin.token)
    .post(`/v1/integrations/${name}`)
    .send({
      organization: owner.org.id,
      title: 'Scoped',
      description: 'Asks for more later',
      script: 'export default {};\n',
      scopes,
      visibility: 'unlisted',
    })
    .expect(200);
}

describe('integration scopes do not widen on republish', () => {
  it("keeps an installation's powers until an admin of its organization approves; a dropped scope goes at once", async () => {
    const owner = await createOrg(server.ds);
    const b = await createOrg(server.ds);
    const name = unique('scoped-');
    await publish(owner, name, []);
    const installations = `/v1/integrations/${name}/installations`;
    const installed: Json = (
      await server.as(b.admin.token).post(installations).send({ organization: b.org.id }).expect(201)
    ).body;
    expect(installed.scopesPendingApproval).toEqual([]);
    await server
      .as(b.admin.token)
      .patch(`${installations}/${installed.id}`)
      .send({ space_selection: 'all' })
      .expect(200);
    const space = await newSpace(server, b.admin, b.org.id, { title: 'Confidential' });
    const page = (
      await server
        .as(b.admin.token)
        .post(`/v1/spaces/${space.id}/content/pages`)
        .send({ title: 'Salaries', markdown: 'secret' })
        .expect(201)
    ).body;

    await publish(owner, name, ['space:content:write']);
    // a token minted with the integration's own token (every dev-tunnel event carries one)
    const integration = await server.ds.manager.findOneByOrFail(Integration, { name });
    const own = (
      await inTransaction(server.ds, (db) =>
        issueIntegrationTokens(db, { integrationTokenTtlSeconds: 600 }, { integration }),
      )
    ).integration;
    const minted = (await server.as(own).post(`${installations}/${installed.id}/tokens`).expect(200)).body.token;
    const readPage = () => server.as(minted).get(`/v1/spaces/${space.id}/content/page/${page.id}`);
    const createPage = () => server.as(minted).post(`/v1/spaces/${space.id}/content/pages`).send({ title: 'Planted' });
    await readPage().expect(404);
    await createPage().expect(404);
    const pending = (await server.as(b.admin.token).get(`${installations}/${installed.id}`).expect(200)).body;
    expect(pending.scopesPendingApproval).toEqual(['space:content:write']);
    expect(pending.status).toBe(installed.status);

    // only an admin of the installing organization approves, by repeating GitBook's install call
    const editor = await addMember(server.ds, b.org, 'edit');
    await server.as(editor.token).post(installations).send({ organization: b.org.id }).expect(403);
    await readPage().expect(404);
    const setupEvents = () =>
      server.ds.manager.countBy(IntegrationEvent, { installationId: installed.id, type: 'installation_setup' });
    const eventsBefore = await setupEvents();
    const approved = (await server.as(b.admin.token).post(installations).send({ organization: b.org.id }).expect(200))
      .body;
    expect(approved.scopesPendingApproval).toEqual([]);
    expect(await setupEvents()).toBe(eventsBefore + 1);
    const row = await server.ds.manager.findOneByOrFail(IntegrationInstallation, { id: installed.id });
    expect(row.grantedScopes).toEqual(['space:content:write']);
    await readPage().expect(200);
    await createPage().expect(201);
    // approving again with nothing pending changes nothing and tells the integration nothing
    await server.as(b.admin.token).post(installations).send({ organization: b.org.id }).expect(200);
    expect(await setupEvents()).toBe(eventsBefore + 1);

    // a republish that drops the scope applies at once; asking for it again waits for approval again
    await publish(owner, name, []);
    await readPage().expect(404);
    await publish(owner, name, ['space:content:write']);
    await readPage().expect(404);
    expect(
      (await server.as(b.admin.token).get(`${installations}/${installed.id}`).expect(200)).body.scopesPendingApproval,
    ).toEqual(['space:content:write']);
  });
});

/** A space with pages, a change request on it and members of every role, for the comment tests. */

import { createChangeRequest } from '../../domain/content/change-requests';
import { createSpace } from '../../domain/spaces/spaces';
import type { ChangeRequest } from '../../entities/ChangeRequest';
import { Space } from '../../entities/Space';
import { inTransaction } from '../../platform/db/transactions';
import { Actor, addMember, createOrg, OrgFixture, unique } from '../factories';
import { writeHead } from './heads';
import type { TestServer } from './server';

export interface CommentFixture {
  fx: OrgFixture;
  space: Space;
  changeRequest: ChangeRequest;
  /** a page of the space (and so of the change request) */
  guide: string;
  /** a second page of the space */
  faq: string;
  editor: Actor;
  commenter: Actor;
  reader: Actor;
  spaceComments: string;
  crComments: string;
}

export async function commentFixture(server: TestServer): Promise<CommentFixture> {
  const fx = await createOrg(server.ds);
  const [editor, commenter, reader] = [
    await addMember(server.ds, fx.org, 'edit', unique('alice')),
    await addMember(server.ds, fx.org, 'comment', unique('bob')),
    await addMember(server.ds, fx.org, 'read', unique('rita')),
  ];
  const space = await inTransaction(server.ds, (db) =>
    createSpace(db, fx.org.id, null, { title: 'Docs' }, fx.admin.user.id),
  );
  const { result: pages } = await writeHead(
    server,
    { kind: 'space', spaceId: space.id },
    fx.admin.user.id,
    async (e) => ({
      guide: await e.createPage({
        title: 'Guide',
        emoji: '📘',
        markdown: '# Install\n\nRun it.\n\n## Configure the server\n\nSet it up.',
      }),
      faq: await e.createPage({ title: 'FAQ', markdown: 'Questions.' }),
    }),
  );
  const changeRequest = await inTransaction(server.ds, (db) =>
    createChangeRequest(db, space.id, { subject: 'Rework the guide' }, editor.user.id),
  );
  // the space row as it is now, its head moved by the pages written above
  const fresh = await server.ds.manager.findOneByOrFail(Space, { id: space.id });
  return {
    fx,
    space: fresh,
    changeRequest,
    ...pages,
    editor,
    commenter,
    reader,
    spaceComments: `/v1/spaces/${space.id}/comments`,
    crComments: `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/comments`,
  };
}

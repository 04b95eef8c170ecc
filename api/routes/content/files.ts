/** Files of the content: list (paginated), read, upload (raw bytes, extension), delete (extension). */

import type { FileEntry } from '../../../domain/content/model';
import { storeUpload } from '../../../domain/content/uploads';
import { badRequest, notFound } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import { inTransaction } from '../../../platform/db/transactions';
import { MemoryKey, pageInMemory } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import { fileSchema, presentFile } from '../../presenters/file';
import { Urls } from '../../presenters/urls';
import { READ_FORMS } from './revision-form';
import { contentQuery, fileIdParams, listFilesQuery, uploadFileBody, uploadFileQuery } from './schema';
import { CONTENT_FORMS, CONTENT_READ_ACCESS, CONTENT_WRITE_EFFECTS, commitEdits, openContent } from './target';

type NamedFile = { id: string; file: FileEntry };

/** The order ContentReader.files() sorts in: name (locale-aware), then id. */
const byNameThenId = (a: MemoryKey, b: MemoryKey): number =>
  String(a[0]).localeCompare(String(b[0])) || String(a[1]).localeCompare(String(b[1]));

export function contentFileRoutes(api: ApiBuilder): void {
  const { ds, config, blobs } = api.deps;
  const urls = new Urls(config);

  for (const form of READ_FORMS) {
    api.op(
      {
        method: 'get',
        path: form.path('/files'),
        operationId: `list${form.name}Files`,
        description: `Lists the files of ${form.reads.full}, by name then id, paginated; each comes with a signed download URL. ${CONTENT_READ_ACCESS} A cursor stays valid when the content changes between pages.`,
        tags: ['content'],
        extension: form.extension,
        summary: `List the files of ${form.reads.short}, by name then id`,
        params: form.params,
        query: listFilesQuery,
        responses: { 200: { description: 'files', schema: listSchema(fileSchema) } },
      },
      async ({ params, query, access }) => {
        const target = await form.resolve(access, params, 'view');
        const { reader } = await openContent(ds, target);
        const files = await reader.files();
        // The list is the target's files whatever its revision, so a cursor outlives edits between pages.
        const scope = `files:${target.space.id}:${target.changeRequest?.id ?? ''}`;
        const page = pageInMemory<NamedFile>(
          files,
          { key: (f) => [f.file.name, f.id], arity: 2, compare: byNameThenId },
          { limit: query.limit, page: query.page, scope },
          config.cursorSecret,
        );
        const items = await Promise.all(page.items.map(({ id, file }) => presentFile(id, file, blobs)));
        return { status: 200, body: presentList(page, items) };
      },
    );

    api.op(
      {
        method: 'get',
        path: form.path('/files/{fileId}'),
        operationId: `get${form.name}FileById`,
        description: `Reads one file of ${form.reads.full}, with its size, media type, image dimensions and a signed download URL. ${CONTENT_READ_ACCESS} 404 when the revision has no file with that id.`,
        tags: ['content'],
        extension: form.extension,
        summary: `Get one file of ${form.reads.short}`,
        params: { ...form.params, ...fileIdParams },
        query: contentQuery,
        responses: { 200: { description: 'file', schema: fileSchema } },
      },
      async ({ params, access }) => {
        const target = await form.resolve(access, params, 'view');
        const { reader } = await openContent(ds, target);
        const file = await reader.file(params.fileId);
        if (!file) throw notFound('file');
        return { status: 200, body: await presentFile(params.fileId, file, blobs) };
      },
    );
  }

  for (const form of CONTENT_FORMS) {
    api.op(
      {
        method: 'post',
        path: form.path('/files'),
        operationId: `upload${form.name}File`,
        description: `Stores one file (at most FILE_MAX_BYTES, 25 MiB by default; 413 beyond) and adds it to the content under a new id; identical bytes are stored once. ${CONTENT_WRITE_EFFECTS}`,
        tags: ['content'],
        extension: true,
        summary:
          "Upload a file, as multipart/form-data with one file part (curl -F file=@logo.png) or as the file's raw bytes with its own Content-Type; one new revision",
        params: form.params,
        query: uploadFileQuery,
        body: uploadFileBody,
        upload: { limit: config.blobs.fileMaxBytes },
        responses: { 201: { description: 'uploaded', schema: fileSchema } },
      },
      async ({ params, query, body, caller, access }) => {
        const target = await form.resolve(access, params, 'edit');
        const name = query.name ?? body.filename;
        if (name === undefined)
          throw badRequest(
            'name: is required for raw bytes: add ?name=logo.png, or send multipart/form-data, whose file part carries its filename',
          );
        // Stored before the commit: the bytes are content-addressed, so a refused commit leaves at
        // most an unreferenced copy that the next identical upload reuses.
        const entry = await storeUpload(blobs, target.space.id, {
          name,
          contentType: body.contentType,
          bytes: body.bytes,
        });
        const id = newId();
        await inTransaction(api.deps, (db) =>
          commitEdits(db, target, caller.userId, config.appBaseUrl, async (editor) => editor.putFile(id, entry)),
        );
        return {
          status: 201,
          headers: { Location: urls.api(`${target.apiPath}/files/${id}`) },
          body: await presentFile(id, entry, blobs),
        };
      },
    );

    api.op(
      {
        method: 'delete',
        path: form.path('/files/{fileId}'),
        operationId: `delete${form.name}File`,
        description: `Removes a file from the content; its bytes stay for the earlier revisions that hold it. ${CONTENT_WRITE_EFFECTS}`,
        tags: ['content'],
        extension: true,
        summary:
          'Delete a file from the content (one new revision; the bytes stay for earlier revisions); 404 when the file is not in the content',
        params: { ...form.params, ...fileIdParams },
        responses: { 204: { description: 'deleted' } },
      },
      async ({ params, caller, access }) => {
        const target = await form.resolve(access, params, 'edit');
        await inTransaction(api.deps, (db) =>
          commitEdits(db, target, caller.userId, config.appBaseUrl, (editor) => editor.deleteFile(params.fileId)),
        );
        return { status: 204 };
      },
    );
  }
}

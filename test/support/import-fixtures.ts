/**
 * Documents for import tests, made here: zip archives (yazl) and Word documents (docx); and the import
 * of a test website into a new space, requested and dispatched as the API does.
 */
import { Document, HeadingLevel, ImageRun, Packer, Paragraph, TextRun } from 'docx';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { ZipFile } from 'yazl';
import { requestImport } from '../../domain/imports/runs';
import { applyJobTicket } from '../../domain/jobs/job-start';
import type { Space } from '../../entities/Space';
import { inTransaction } from '../../platform/db/transactions';
import type { TemporalGateway } from '../../platform/temporal/gateway';
import { createOrg } from '../factories';
import { insertSpace } from './content';
import { heldBack } from './held-back';
import { pngBytes, type Website } from './website';

/** Imports `site` into a new space of a new organization: its import run's id and the space. */
export async function importWebsite(
  ds: DataSource,
  temporal: TemporalGateway,
  site: Website,
): Promise<{ importRunId: string; space: Space }> {
  const { org, admin } = await createOrg(ds);
  const space = await insertSpace(ds, org);
  const { ticket } = await inTransaction(heldBack(ds), (db) =>
    requestImport(
      db,
      { space, changeRequest: null, head: { kind: 'space', spaceId: space.id } },
      { url: `${site.base}/site/`, source: 'website' },
      admin.user.id,
    ),
  );
  await applyJobTicket(temporal, ds.manager, ticket, pino({ level: 'silent' }));
  return { importRunId: ticket.row.id, space };
}

export async function zipOf(files: Record<string, Buffer | string>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [path, body] of Object.entries(files)) zip.addBuffer(Buffer.from(body), path);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A Word document: a title heading, a paragraph with bold text, and one PNG image. */
export async function docxWithImage(title: string): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: title, heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [
              new TextRun('Written in Word, with '),
              new TextRun({ text: 'bold words', bold: true }),
              new TextRun('.'),
            ],
          }),
          new Paragraph({
            children: [new ImageRun({ type: 'png', data: pngBytes(99), transformation: { width: 10, height: 10 } })],
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/** Documents for import tests, made here: zip archives (yazl) and Word documents (docx). */
import { Document, HeadingLevel, ImageRun, Packer, Paragraph, TextRun } from 'docx';
import { ZipFile } from 'yazl';
import { pngBytes } from './website';

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

/**
 * The manuscript as a file of JSON lines, written by the collect step and read by the render step, so that neither
 * holds more than one batch of pages: a `head` line, a `page` line per page in the PDF's order, and an `images` line
 * last (known once every page was read). The render step reads the file once for its index (what the title page,
 * the contents and the links need of every page, a few short strings each) and then streams the pages, once per pass.
 */

import { once } from 'events';
import { createReadStream, createWriteStream, type WriteStream } from 'fs';
import { createInterface } from 'readline';
import { finished } from 'stream/promises';

export interface ManuscriptPage {
  id: string;
  title: string;
  description: string | null;
  /** 0 for the pages at the top of the PDF */
  depth: number;
  path: string;
  markdown: string;
}

export interface ManuscriptImage {
  name: string;
  contentType: string;
  /** blob key of the bytes */
  blob: string;
}

/** What the title page shows, and the revision it was made from. */
export interface ManuscriptHead {
  title: string;
  subtitle: string;
  /** what part of the change request this is, when not all of it */
  scope: string | null;
  revisionId: string;
  generatedAt: string;
}

type Line = { head: ManuscriptHead } | { page: ManuscriptPage } | { images: Record<string, ManuscriptImage> };

/** The whole manuscript as one JSON document: what collect steps of releases before the lines wrote. */
type WholeManuscript = ManuscriptHead & { pages: ManuscriptPage[]; images: Record<string, ManuscriptImage> };

export class ManuscriptWriter {
  private readonly out: WriteStream;

  constructor(file: string) {
    this.out = createWriteStream(file);
  }

  /** Appends a line, waiting while the file catches up. */
  async write(line: Line): Promise<void> {
    if (!this.out.write(`${JSON.stringify(line)}\n`)) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    this.out.end();
    await finished(this.out);
  }

  /** Closes the file after a failure, without waiting on what it would have written. */
  destroy(): void {
    this.out.destroy();
  }
}

/** What the renderer needs of a page before it lays the pages out. */
export type PageIndexEntry = Pick<ManuscriptPage, 'id' | 'title' | 'depth' | 'path'>;

/** A manuscript file opened for rendering: its head, images and page index in memory, its pages streamed. */
export interface ManuscriptSource {
  head: ManuscriptHead;
  images: Record<string, ManuscriptImage>;
  index: PageIndexEntry[];
  /** The pages in order, read from the file a line at a time (each call reads it again). */
  pages(): AsyncIterable<ManuscriptPage>;
}

async function* lines(file: string): AsyncGenerator<Line> {
  const input = createReadStream(file);
  try {
    for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (!text) continue;
      const line = JSON.parse(text) as Line | WholeManuscript;
      if (!('pages' in line)) yield line;
      else {
        // a manuscript collected before an upgrade, rendered after it: the same lines, from memory as before
        const { pages, images, ...head } = line;
        yield { head };
        for (const page of pages) yield { page };
        yield { images };
      }
    }
  } finally {
    input.destroy();
  }
}

export async function openManuscript(file: string): Promise<ManuscriptSource> {
  let head: ManuscriptHead | null = null;
  let images: Record<string, ManuscriptImage> | null = null;
  const index: PageIndexEntry[] = [];
  for await (const line of lines(file)) {
    if ('head' in line) head = line.head;
    else if ('images' in line) images = line.images;
    else index.push({ id: line.page.id, title: line.page.title, depth: line.page.depth, path: line.page.path });
  }
  // a file cut short (a step that died while writing it) has no images line: never rendered as if complete
  if (!head || !images) throw new Error(`the manuscript ${file} is incomplete`);
  return {
    head,
    images,
    index,
    pages: async function* () {
      for await (const line of lines(file)) if ('page' in line) yield line.page;
    },
  };
}

/**
 * `docx`: a Word document converted with mammoth into one page, its images included as files. The
 * document is a zip archive: it is checked against the archive limits before mammoth unpacks it, and
 * mammoth may not read files the document links to (`externalFileAccess: false`).
 */
import mammoth from 'mammoth';
import { titleOfSegment } from '../batch';
import { documentTooLarge, htmlToMarkdown } from '../html-to-markdown';
import { fileNameOf } from '../images';
import { fetchDocument, SourceContext, unreadable } from './context';
import { readArchive } from './zip';

/** How the HTML mammoth writes names an image it stored: `docx-image:<fileId>`. */
const IMAGE_SCHEME = 'docx-image:';

/**
 * Bytes of the document's XML parts together (its text, styles, numbering, notes, relationships), at most:
 * mammoth holds ~100 bytes of heap per byte of them (a 24 KB document whose text unpacked to 5 MB took 1.1 GB).
 */
const DOCX_MAX_XML_BYTES = 3_000_000;

export async function stageDocx(ctx: SourceContext): Promise<void> {
  const { batch } = ctx;
  const res = await fetchDocument(
    ctx,
    ctx.run.url,
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document, application/octet-stream',
  );
  const parts = await readArchive(res.body, {
    maxEntries: batch.limits.maxArchiveEntries,
    maxBytes: batch.remainingBytes,
  });
  let xmlBytes = 0;
  for (const [path, bytes] of parts) if (/\.(xml|rels)$/i.test(path)) xmlBytes += bytes.length;
  if (xmlBytes > DOCX_MAX_XML_BYTES)
    throw documentTooLarge(res.url, `the document's XML holds more than ${DOCX_MAX_XML_BYTES} bytes`);
  let images = 0;
  const convertImage = mammoth.images.imgElement(async (image) => {
    const n = ++images;
    ctx.live.heartbeat({ done: 0 });
    const subtype = image.contentType.split('/')[1]?.replace(/[^a-z0-9]/gi, '') || 'bin';
    const id = await batch.addImage(`docx:${n}`, {
      name: `image-${n}.${subtype}`,
      contentType: image.contentType,
      bytes: await image.readAsBuffer(),
    });
    return { src: `${IMAGE_SCHEME}${id}` };
  });
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: res.body }, { convertImage, externalFileAccess: false })).value;
  } catch (err) {
    throw unreadable(`not a Word document (.docx): ${(err as Error).message}`);
  }
  const page = await htmlToMarkdown(html, {
    baseUrl: res.url,
    mainContent: false,
    link: (url) => url.href,
    image: async (url) => (url.protocol === IMAGE_SCHEME ? `file:${url.pathname}` : null),
  });
  batch.state.processed = 1;
  batch.addPage(
    {
      path: [],
      title: page.title ?? titleOfSegment(fileNameOf(new URL(res.url).pathname, 'Imported document')),
      source: null,
    },
    page.markdown,
  );
  batch.state.finished = true;
}

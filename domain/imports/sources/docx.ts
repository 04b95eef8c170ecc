/**
 * `docx`: a Word document converted with mammoth into one page, its images included as files. The
 * document is a zip archive: it is checked against the archive limits before mammoth unpacks it, and
 * mammoth may not read files the document links to (`externalFileAccess: false`).
 */
import mammoth from 'mammoth';
import { titleOfSegment } from '../batch';
import { htmlToMarkdown } from '../html-to-markdown';
import { fileNameOf } from '../images';
import { fetchDocument, SourceContext, unreadable } from './context';
import { readArchive } from './zip';

/** How the HTML mammoth writes names an image it stored: `docx-image:<fileId>`. */
const IMAGE_SCHEME = 'docx-image:';

export async function stageDocx(ctx: SourceContext): Promise<void> {
  const { batch } = ctx;
  const res = await fetchDocument(
    ctx,
    ctx.run.url,
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document, application/octet-stream',
  );
  await readArchive(res.body, { maxEntries: batch.limits.maxArchiveEntries, maxBytes: batch.remainingBytes });
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

/**
 * A local website for import tests and the import benchmark: `/site/` is a home page linking to 10
 * section pages, which link to their pages; every page links to its neighbours (cross links), has
 * an image (20 distinct ones), a link outside the site's path and, on the home page, a link that
 * robots.txt disallows. Other documents are served from `files` by path.
 */
import http from 'http';
import type { AddressInfo } from 'net';

/** A 1x1 PNG; each image of the site is this with a different comment chunk, so their bytes differ. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export function pngBytes(n: number): Buffer {
  // an extra byte after IEND: image readers ignore it, and the SHA-256 differs per image
  return Buffer.concat([PIXEL, Buffer.from([n % 256])]);
}

export const SECTIONS = 10;

export interface Website {
  base: string;
  /** every page the crawl should import, by path */
  pagePaths: string[];
  /** pages served so far */
  served(): number;
  close(): Promise<void>;
}

export interface WebsiteOptions {
  /** pages below the sections (the site has 1 + SECTIONS + pages in all) */
  pages: number;
  /** delay before each page's answer */
  delayMs?: number;
  files?: Record<string, { type: string; body: Buffer | string }>;
}

const sectionPath = (k: number) => `/site/section-${k}/`;
const pagePath = (i: number) => `/site/section-${i % SECTIONS}/page-${i}.html`;

function layout(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title} | Example docs</title></head><body>
<nav><a href="/site/">Home</a> <a href="/site/section-0/">Sections</a></nav>
<main><article><h1>${title}</h1>${body}</article></main>
<footer><p>Footer text that is not content.</p></footer></body></html>`;
}

function pageHtml(i: number, pages: number): string {
  const prev = i > 0 ? `<a href="../section-${(i - 1) % SECTIONS}/page-${i - 1}.html">previous page</a>` : '';
  const next = i + 1 < pages ? `<a href="${pagePath(i + 1)}">next page</a>` : '';
  return layout(
    `Page ${i}`,
    `<p>This is page ${i} of the example documentation. It explains topic ${i} in enough words for a reader view to keep it as the main content of the page, with a link back <a href="${sectionPath(i % SECTIONS)}">to its section</a>.</p>
<p><img src="/site/img/${i % 20}.png" alt="Figure ${i}"> ${prev} ${next} <a href="/outside/page.html">outside the site</a>.</p>
<h2>Details</h2><ul><li>First point of page ${i}</li><li>Second point, <code>code ${i}</code></li></ul>`,
  );
}

function sectionHtml(k: number, pages: number): string {
  const links = [];
  for (let i = k; i < pages; i += SECTIONS) links.push(`<li><a href="page-${i}.html">Page ${i}</a></li>`);
  return layout(
    `Section ${k}`,
    `<p>Section ${k} gathers the pages of one topic of the example documentation, listed below for the reader.</p><ul>${links.join('')}</ul>`,
  );
}

function homeHtml(): string {
  const links = Array.from({ length: SECTIONS }, (_, k) => `<li><a href="section-${k}/">Section ${k}</a></li>`).join(
    '',
  );
  return layout(
    'Home',
    `<p>Welcome to the example documentation. Start with one of the sections below; each has its own pages.</p><ul>${links}</ul><p><a href="/site/private/secret.html">private notes</a></p>`,
  );
}

export async function startWebsite(options: WebsiteOptions): Promise<Website> {
  const { pages, delayMs = 0, files = {} } = options;
  let served = 0;
  const routes = new Map<string, () => string>([
    ['/site/', homeHtml],
    ['/site/private/secret.html', () => layout('Secret', '<p>Robots may not read this.</p>')],
  ]);
  for (let k = 0; k < SECTIONS; k++) routes.set(sectionPath(k), () => sectionHtml(k, pages));
  for (let i = 0; i < pages; i++) routes.set(pagePath(i), () => pageHtml(i, pages));
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/robots.txt')
      return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('User-agent: *\nDisallow: /site/private/\n');
    const image = /^\/site\/img\/(\d+)\.png$/.exec(path);
    if (image) return void res.writeHead(200, { 'Content-Type': 'image/png' }).end(pngBytes(Number(image[1])));
    const file = files[path];
    if (file) return void res.writeHead(200, { 'Content-Type': file.type }).end(file.body);
    const page = routes.get(path);
    if (!page)
      return void res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html><body>not found</body></html>');
    served++;
    setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page()), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    pagePaths: [...routes.keys()].filter((p) => !p.includes('/private/')),
    served: () => served,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

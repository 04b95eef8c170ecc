/**
 * A known path asked with a method it lacks answers 405 with `Allow`, not 404 "route not found": the
 * path was right, and the answer says which methods it takes. Paths are matched as Express matches them
 * (path-to-regexp, the router's own matcher), after every operation is mounted.
 */
import type { RequestHandler } from 'express';
import { MatchFunction, match } from 'path-to-regexp';
import { AppError } from '../domain/errors';

export class MethodsByPath {
  private readonly paths = new Map<string, { matches: MatchFunction<object>; methods: Set<string> }>();

  /** `path` in Express's syntax (`/v1/spaces/:spaceId`). */
  add(path: string, method: string): void {
    let entry = this.paths.get(path);
    if (!entry) {
      entry = { matches: match(path, { decode: false }), methods: new Set() };
      this.paths.set(path, entry);
    }
    entry.methods.add(method.toUpperCase());
  }

  /** The methods a URL's path takes, HEAD with GET, as Express answers it; empty when no operation has it. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const entry of this.paths.values()) if (entry.matches(path)) for (const m of entry.methods) methods.add(m);
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }

  /** Runs where no route matched: a 405 with `Allow` for a known path, else on to the 404. */
  handler(): RequestHandler {
    return (req, res, next) => {
      const allowed = this.allowed(req.path);
      if (allowed.length === 0) {
        next();
        return;
      }
      res.set('Allow', allowed.join(', '));
      next(new AppError(405, `method: ${req.method} is not allowed on this path; it takes ${allowed.join(', ')}`));
    };
  }
}

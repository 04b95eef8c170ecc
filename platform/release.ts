/**
 * The running release: the package's version, and when it was built. The build (`tsc`) writes its own copy of
 * package.json beside the compiled code, so that copy's date is the build's; a run from source takes the date of
 * package.json itself, which changes with each release's version.
 */
import { statSync } from 'fs';
import path from 'path';
import { version } from '../package.json';

export interface Release {
  version: string;
  build: Date;
}

export const RELEASE: Release = { version, build: statSync(path.join(__dirname, '..', 'package.json')).mtime };

/** What every translation provider implements: one batch of segments, translated in order. */
import type { Segment } from '../segments';

export interface TranslationRequest {
  /** Language codes of the service (domain/spaces/languages.ts); each provider maps them to its own. */
  source: string;
  target: string;
  /** The translation's instructions as markdown ('' when none); providers that take a prompt use them. */
  instructions: string;
}

export interface TranslationProvider {
  readonly name: string;
  /** The most segments one request may carry (the provider's own limit). */
  readonly maxSegments: number;
  /** Translates the segments, keeping their placeholders; the answer has one segment per segment. */
  translateBatch(segments: Segment[], request: TranslationRequest): Promise<Segment[]>;
}

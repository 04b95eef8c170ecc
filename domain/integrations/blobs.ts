/**
 * Where a published version's script, icon and preview images live in the blob store. Keys carry the
 * version, so a republish never overwrites what the current version serves: the previous version's
 * blobs are removed after the publish commits, and a publish that rolled back leaves blobs under a
 * version number that the next successful publish writes again.
 */
import type { Integration } from '../../entities/Integration';

const folder = (integrationId: string, version: number) => `integrations/${integrationId}/${version}`;

export const integrationBlobKeys = {
  script: (integrationId: string, version: number) => `${folder(integrationId, version)}/script.js`,
  icon: (integrationId: string, version: number) => `${folder(integrationId, version)}/icon.png`,
  preview: (integrationId: string, version: number, index: number) =>
    `${folder(integrationId, version)}/preview-${index}.png`,
};

/** Every blob of the integration's current version (its removal, after a republish or with the tombstone). */
export function blobKeysOf(integration: Pick<Integration, 'scriptKey' | 'iconKey' | 'previewImageKeys'>): string[] {
  return [
    integration.scriptKey,
    ...(integration.iconKey ? [integration.iconKey] : []),
    ...integration.previewImageKeys,
  ];
}

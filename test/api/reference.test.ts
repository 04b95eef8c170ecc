/**
 * The reference teaches: every operation says, beyond its summary, what it does, who may call it, what it changes
 * and which job it starts; every property and parameter says what it is. `REFERENCE_GAPS=1` prints every gap.
 */
import request from 'supertest';
import { referenceGaps } from '../support/reference-gaps';
import { useServer } from '../support/server';

const server = useServer();

describe('the reference', () => {
  it('describes every operation and every property', async () => {
    const document = (await request(server.app).get('/v1/openapi.json').expect(200)).body;
    const gaps = referenceGaps(document);
    if (process.env.REFERENCE_GAPS) process.stdout.write(`${JSON.stringify(gaps, null, 1)}\n`);
    expect(gaps.propertyCount).toBeGreaterThan(1000);
    expect({ operations: gaps.operations, properties: gaps.properties }).toEqual({ operations: [], properties: [] });
  });

  it('says in its info how to get a token, and where the tour is', async () => {
    const { info } = (await request(server.app).get('/v1/openapi.json').expect(200)).body;
    expect(info.description).toContain('Authorization: Bearer <token>');
    expect(info.description).toContain('bootstrap');
    expect(info.description).toContain('docs/tour.md');
  });
});

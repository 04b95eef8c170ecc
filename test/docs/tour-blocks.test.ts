/** The tour checker's own rules: a stitched output is found, and a re-recorded one keeps the text and takes the values. */
import { disagreeingLocations, Mask, rerecorded } from '../support/tour-blocks';

const masks: Mask[] = [
  { name: 'ids', pattern: /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{20,21}(?![A-Za-z0-9_-]|":)/g, as: '<id>' },
];

describe('disagreeingLocations', () => {
  it('names a Location whose id is not the id of the body below it', () => {
    const stitched =
      'HTTP/1.1 201 Created\nLocation: http://h/v1/spaces/bvrp_H88SLpbT15AEFCr\n…\n{"object":"space","id":"gLFlr00Tvmo_xrKhPGgJi"}';
    expect(disagreeingLocations(stitched)).toEqual([
      'Location names bvrp_H88SLpbT15AEFCr, the body below it gLFlr00Tvmo_xrKhPGgJi',
    ]);
    expect(disagreeingLocations(stitched.replace('bvrp_H88SLpbT15AEFCr', 'gLFlr00Tvmo_xrKhPGgJi'))).toEqual([]);
    expect(disagreeingLocations('Location: http://h/v1/x/abcdefghijklmnopqrstu\n\n{"error":{"code":400}}')).toEqual([]);
  });
});

describe('rerecorded', () => {
  it('keeps the recorded text and its omissions, with the values of the run', () => {
    const recorded = 'made abcdefghijklmnopqrst\n…\n{"id":"abcdefghijklmnopqrst","n":1}';
    const printed = 'made ZYXWVUTSRQPONMLKJIHG\nextra line\n{"id":"ZYXWVUTSRQPONMLKJIHG","n":1}';
    expect(rerecorded(recorded, printed, masks)).toBe(
      'made ZYXWVUTSRQPONMLKJIHG\n…\n{"id":"ZYXWVUTSRQPONMLKJIHG","n":1}',
    );
    expect(rerecorded(recorded, printed.replace('"n":1', '"n":2'), masks)).toBeNull();
  });
});

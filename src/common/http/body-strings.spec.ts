import { errorAt, hasUnpairedSurrogate, unpairedSurrogatePath } from './body-strings';

describe('unpaired surrogates in bodies', () => {
  it('finds lone high and low surrogates, not pairs', () => {
    expect(hasUnpairedSurrogate('\ud800')).toBe(true);
    expect(hasUnpairedSurrogate('a\udc00b')).toBe(true);
    expect(hasUnpairedSurrogate('\ud83d\ude00 ok')).toBe(false);
    expect(hasUnpairedSurrogate('\ude00\ud83d')).toBe(true);
    expect(hasUnpairedSurrogate('äöü€')).toBe(false);
  });

  it('names the path of the first bad string or key', () => {
    expect(unpairedSurrogatePath({ a: 'x', b: [1, { c: 'y\ud800' }] })).toEqual(['b', 1, 'c']);
    expect(unpairedSurrogatePath({ meta: { '\udfff': 1 } })).toEqual(['meta', '\udfff']);
    expect(unpairedSurrogatePath({ a: ['\ud83d\ude00'] })).toBeNull();
    expect(unpairedSurrogatePath('\ud800')).toEqual([]);
  });

  it('is linear: a 5 MB string is checked in well under a second', () => {
    const big = 'a\ud83d\ude00'.repeat(1_500_000);
    const started = Date.now();
    expect(unpairedSurrogatePath({ big })).toBeNull();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('shapes the error like DRF', () => {
    expect(errorAt(['name'], 'm')).toEqual({ name: ['m'] });
    expect(errorAt(['positions', 1, 'answer'], 'm')).toEqual({ positions: [{}, { answer: ['m'] }] });
    expect(errorAt([], 'm')).toEqual({ non_field_errors: ['m'] });
  });
});

import { forbiddenKey, jsonDeeperThan } from './body-parsing';

const bytes = (s: string) => Buffer.from(s, 'utf8');

describe('jsonDeeperThan', () => {
  it('counts objects and arrays, top level as 1', () => {
    expect(jsonDeeperThan(bytes('{"a": [1, {"b": []}]}'), 4)).toBe(false);
    expect(jsonDeeperThan(bytes('{"a": [1, {"b": []}]}'), 3)).toBe(true);
    expect(jsonDeeperThan(bytes('[[], [], {"a": {}}]'), 3)).toBe(false);
    expect(jsonDeeperThan(bytes('"x"'), 0)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDeeperThan(bytes('{"a": "[[[[{{{{", "b": "\\"[[[["}'), 1)).toBe(false);
    expect(jsonDeeperThan(bytes('{"a": "\\\\", "b": [[]]}'), 2)).toBe(true);
    expect(jsonDeeperThan(bytes('{"ä€😀": "[[[["}'), 1)).toBe(false);
  });

  it('scans a million levels without recursion', () => {
    expect(jsonDeeperThan(bytes('['.repeat(1_000_000) + ']'.repeat(1_000_000)), 32)).toBe(true);
  });
});

describe('forbiddenKey', () => {
  it('finds prototype keys at any depth with their path, reading own keys only', () => {
    expect(forbiddenKey(JSON.parse('[{"item": 1, "tag": {"constructor": {"prototype": {}}}}]'))).toEqual({
      path: '[0].tag',
      key: 'constructor',
    });
    expect(forbiddenKey(JSON.parse('{"a": {"b": [0, {"__proto__": 1}]}}'))).toEqual({
      path: 'a.b[1]',
      key: '__proto__',
    });
    expect(forbiddenKey(JSON.parse('{"prototype": 1}'))).toEqual({ path: '', key: 'prototype' });
    expect(forbiddenKey({ name: { en: 'constructor' }, list: ['__proto__'] })).toBeNull();
    expect(forbiddenKey(null)).toBeNull();
  });
});

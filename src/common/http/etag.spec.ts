import { RequestMethod } from '@nestjs/common';
import { resourceRouteOf } from './conditional-writes';
import { entityTag, ifMatchHolds, noneMatchHits, parseTagList } from './etag';
import type { RouteInfo } from './route-registry';

const route = (method: keyof typeof RequestMethod, path: string, trailingSlash = true): RouteInfo => ({
  method,
  path,
  trailingSlash,
  access: undefined,
  regex: new RegExp(`^${path.replace(/:[a-z_]+/g, '[^/]+')}$`),
});

describe('entity tags', () => {
  const tag = entityTag('{"id":1}');

  it('is a strong tag of 43 base64url characters, the same for the same bytes', () => {
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(entityTag(Buffer.from('{"id":1}'))).toBe(tag);
    expect(entityTag('{"id":2}')).not.toBe(tag);
  });

  it('parses tag lists: *, strong and weak tags, junk ignored, absent as null', () => {
    expect(parseTagList(undefined)).toBeNull();
    expect(parseTagList(' ')).toBeNull();
    expect(parseTagList(' * ')).toBe('*');
    expect(parseTagList('"a", W/"b", junk')).toEqual([
      { tag: '"a"', weak: false },
      { tag: '"b"', weak: true },
    ]);
    expect(parseTagList(['"a"', '"b"'])).toHaveLength(2);
  });

  it('If-None-Match compares weakly', () => {
    expect(noneMatchHits(undefined, tag)).toBe(false);
    expect(noneMatchHits(`"x", ${tag}`, tag)).toBe(true);
    expect(noneMatchHits(`W/${tag}`, tag)).toBe(true);
    expect(noneMatchHits('*', tag)).toBe(true);
    expect(noneMatchHits('"x"', tag)).toBe(false);
  });

  it('If-Match compares strongly; * needs an existing representation; absent always holds', () => {
    expect(ifMatchHolds(undefined, null)).toBe(true);
    expect(ifMatchHolds(tag, tag)).toBe(true);
    expect(ifMatchHolds(`"x",${tag}`, tag)).toBe(true);
    expect(ifMatchHolds(`W/${tag}`, tag)).toBe(false);
    expect(ifMatchHolds('*', tag)).toBe(true);
    expect(ifMatchHolds('*', null)).toBe(false);
    expect(ifMatchHolds(tag, null)).toBe(false);
  });
});

describe('resource of a write', () => {
  const E = '/api/v1/organizers/:organizer/events/:event';
  const routes = [
    route('GET', E),
    route('GET', `${E}/orders`),
    route('GET', `${E}/orders/:code`),
    route('GET', `${E}/seats`),
    route('PATCH', `${E}/orders/:code`),
    route('POST', `${E}/orders`),
    route('POST', `${E}/orders/:code/mark_paid`),
    route('POST', `${E}/clone`),
    route('POST', `${E}/seats/bulk_block`),
    route('DELETE', `${E}/quota/:id`),
    route('POST', '/api/v1/device/roll', false),
  ];
  const of = (method: keyof typeof RequestMethod, path: string) =>
    resourceRouteOf(
      routes,
      routes.find((r) => r.method === method && r.path === path)!,
    )?.path ?? null;

  it('is the detail of the same URL for PATCH/PUT/DELETE, the URL without the action for action POSTs', () => {
    expect(of('PATCH', `${E}/orders/:code`)).toBe(`${E}/orders/:code`);
    expect(of('POST', `${E}/orders/:code/mark_paid`)).toBe(`${E}/orders/:code`);
    expect(of('POST', `${E}/clone`)).toBe(E);
  });

  it('is none for creates, bulk routes on lists and routes without a detail GET', () => {
    expect(of('POST', `${E}/orders`)).toBeNull();
    expect(of('POST', `${E}/seats/bulk_block`)).toBeNull();
    expect(of('DELETE', `${E}/quota/:id`)).toBeNull();
    expect(of('POST', '/api/v1/device/roll')).toBeNull();
  });
});

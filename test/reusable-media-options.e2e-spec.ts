import { Principal } from '../src/auth/principal';
import { ReusableMediaService } from '../src/media/reusable-media.service';
import { auth, bootstrapOrganizer } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * style.md "Data access": the reusable-media writes (create, replace/patch) and single-medium answers (get,
 * lookup) take typed options (`{expand: Set<string>}`) instead of the list's `QueryFilters`; the HTTP answers are
 * unchanged (test/reusable-media.e2e-spec.ts).
 */
describe('reusable media service options', () => {
  let t: TestApp;
  let token: string;
  let org: { id: number; slug: string };
  let cardId: number;
  const O = '/api/v1/organizers/org';

  beforeAll(async () => {
    t = await startTestApp();
    let organizerId: number;
    ({ token, organizerId } = await bootstrapOrganizer(t, 'org'));
    org = { id: organizerId, slug: 'org' };
    const card = await t
      .http()
      .post(`${O}/giftcards/`)
      .set('Authorization', auth(token))
      .send({ currency: 'EUR', value: '5.00' });
    expect(card.status).toBe(201);
    cardId = (card.body as { id: number }).id;
  });

  afterAll(() => t.close());

  it('create, update, get and lookup expand as their options say, and write as before', async () => {
    const media = t.app.get(ReusableMediaService);
    const principal = new Principal({ kind: 'team_token', tokenName: 'test' }, []);
    const expand = { expand: new Set(['linked_giftcard']) };
    const none = { expand: new Set<string>() };

    const created = await media.create(
      org,
      principal,
      { type: 'barcode', identifier: 'OPT-1', linked_giftcard: cardId } as never,
      expand,
    );
    expect(created.linked_giftcard).toMatchObject({ id: cardId, value: '5.00' });

    const patched = await media.update(org, created.id, principal, { info: { k: 1 } }, 'patch', none);
    expect(patched.linked_giftcard).toBe(cardId);
    expect(patched.info).toEqual({ k: 1 });

    expect((await media.get(org, created.id, expand)).linked_giftcard).toMatchObject({ id: cardId });
    const found = await media.lookup(org, { type: 'barcode', identifier: 'OPT-1' } as never, none);
    expect(found.result).toMatchObject({ id: created.id, linked_giftcard: cardId, info: { k: 1 } });

    const res = await t.http().get(`${O}/reusablemedia/${created.id}/`).set('Authorization', auth(token));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ identifier: 'OPT-1', linked_giftcard: cardId, info: { k: 1 } });
  });
});

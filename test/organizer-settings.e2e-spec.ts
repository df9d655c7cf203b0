import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/**
 * The organizer resource's newer parts (pretix tests/api/test_organizers.py): `public_url` and `plugins`,
 * `PATCH O/` (only `plugins`, pretix's plugin messages), and `O/settings/` (defaults, PATCH, null back to the
 * default, validation, `?explain=true`, no PUT, permissions, the `pretix.organizer.settings` log entry).
 */
describe('organizer, organizer settings', () => {
  let t: TestApp;
  let token: string;
  let readOnly: string;
  const O = '/api/v1/organizers/org/';
  const S = `${O}settings/`;
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const RES = {
    name: 'Dummy',
    slug: 'org',
    public_url: 'http://localhost:8000/org/',
    plugins: ['pretix.plugins.banktransfer'],
  };

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);

  async function storedSettings(): Promise<Record<string, unknown> | undefined> {
    const rows: { values: Record<string, unknown> }[] = await t.db.query(
      `SELECT "values" FROM organizer_settings WHERE organizer_id = (SELECT id FROM organizer WHERE slug = 'org')`,
    );
    return rows[0]?.values;
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org', 'Dummy'));
    readOnly = await teamToken(t, 'org', {
      allEvents: true,
      organizerPermissions: ['organizer.events:create'],
    });
    await createEvent(t, token, 'org', { slug: 'e2' });
  });
  afterAll(() => t.close());

  describe('organizer', () => {
    it('shows public_url and plugins in the list and the detail', async () => {
      expect((await get('/api/v1/organizers/')).body.results).toContainEqual(RES);
      const res = await get(O);
      expect([res.status, res.body]).toEqual([200, RES]);
    });

    it('PATCH ignores name and slug and accepts the plugins list', async () => {
      const res = await patch(O, {
        slug: 'willbeignored',
        name: 'Willbeignored',
        plugins: ['pretix.plugins.banktransfer'],
      });
      expect([res.status, res.body]).toEqual([200, RES]);
      const rows: { name: string; slug: string }[] = await t.db.query(
        "SELECT name, slug FROM organizer WHERE slug = 'org'",
      );
      expect(rows).toEqual([{ name: 'Dummy', slug: 'org' }]);
      expect((await patch(O, {})).body).toEqual(RES);
    });

    it("refuses unknown plugins and event-level plugins with pretix's messages", async () => {
      let res = await patch(O, { plugins: ['pretix.plugins.ticketoutputpdf'] });
      expect([res.status, res.body]).toEqual([
        400,
        { plugins: ["Plugin cannot be enabled on this level: 'pretix.plugins.ticketoutputpdf'."] },
      ]);
      res = await patch(O, { plugins: ['pretix_datev'] });
      expect([res.status, res.body]).toEqual([400, { plugins: ["Unknown plugin: 'pretix_datev'."] }]);
      res = await patch(O, { plugins: 'x' });
      expect(res.status).toBe(400);
    });

    it('PATCH needs organizer.settings.general:write', async () => {
      const res = await patch(O, { plugins: [] }, readOnly);
      expect([res.status, res.body]).toEqual([403, DENIED]);
      expect((await get(O, readOnly)).status).toBe(200);
    });
  });

  describe('settings', () => {
    it('answers every key with pretix defaults', async () => {
      const res = await get(S);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        customer_accounts: false,
        customer_accounts_native: true,
        event_list_type: 'list',
        event_list_availability: true,
        contact_mail: null,
        imprint_url: null,
        organizer_info_text: { en: '' },
        giftcard_expiry_years: null,
        locales: ['en'],
        region: null,
        primary_color: '#8E44B3',
        theme_color_success: '#50a167',
        theme_round_borders: true,
        primary_font: 'Open Sans',
        organizer_logo_image: null,
        privacy_url: null,
        cookie_consent_dialog_title: { en: 'Privacy settings' },
        reusable_media_type_barcode_identifier_length: 24,
        reusable_media_type_nfc_uid_autocreate_giftcard_currency: 'EUR',
      });
      expect(Object.keys(res.body as object)).toHaveLength(46);
      expect((await get(S, readOnly)).status).toBe(200);
    });

    it('PATCH sets keys, null goes back to the default, logs pretix.organizer.settings', async () => {
      let res = await patch(S, {
        event_list_type: 'week',
        contact_mail: 'info@example.org',
        organizer_info_text: 'Hi',
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        event_list_type: 'week',
        contact_mail: 'info@example.org',
        organizer_info_text: { en: 'Hi' },
      });
      expect(await storedSettings()).toEqual({
        event_list_type: 'week',
        contact_mail: 'info@example.org',
        organizer_info_text: { en: 'Hi' },
      });
      res = await patch(S, { event_list_type: 'list' });
      expect(res.body.event_list_type).toBe('list');
      res = await patch(S, { event_list_type: null, unknown_key: 'ignored' });
      expect(res.status).toBe(200);
      expect(res.body.event_list_type).toBe('list');
      expect(res.body).not.toHaveProperty('unknown_key');
      expect(await storedSettings()).toEqual({
        contact_mail: 'info@example.org',
        organizer_info_text: { en: 'Hi' },
      });
      expect((await get(S)).body.contact_mail).toBe('info@example.org');
      const log: { action_type: string; data: Record<string, unknown> }[] = await t.db.query(
        "SELECT action_type, data FROM log_entry WHERE action_type = 'pretix.organizer.settings' ORDER BY id",
      );
      expect(log.map((l) => l.data)).toEqual([
        { event_list_type: 'week', contact_mail: 'info@example.org', organizer_info_text: { en: 'Hi' } },
        { event_list_type: 'list' },
        { event_list_type: null },
      ]);
    });

    it("validates with pretix's messages and writes nothing on error", async () => {
      const res = await patch(S, {
        primary_color: 'invalid-color',
        event_list_type: 'grid',
        contact_mail: 'nope',
        imprint_url: 'not a url',
        reusable_media_type_barcode_identifier_length: 5,
        locales: ['en', 'xx'],
        customer_accounts: 'yes',
        organizer_logo_image: 'invalid',
      });
      expect([res.status, res.body]).toEqual([
        400,
        {
          primary_color: ['Please enter the hexadecimal code of a color, e.g. #990000.'],
          event_list_type: ['"grid" is not a valid choice.'],
          contact_mail: ['Enter a valid email address.'],
          imprint_url: ['Enter a valid URL.'],
          reusable_media_type_barcode_identifier_length: [
            'Ensure this value is greater than or equal to 12.',
          ],
          locales: ['"xx" is not a valid choice.'],
          customer_accounts: ['Must be a valid boolean.'],
          organizer_logo_image: ['The submitted file ID was not found.'],
        },
      ]);
      expect((await get(S)).body.primary_color).toBe('#8E44B3');
      const ok = await patch(S, { primary_color: '#ff0000', organizer_logo_image: null, region: 'DE' });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ primary_color: '#ff0000', organizer_logo_image: null, region: 'DE' });
    });

    it('explains keys with ?explain=true', async () => {
      const res = await get(`${S}?explain=true`);
      expect(res.status).toBe(200);
      expect(res.body.event_list_type).toEqual({
        value: 'list',
        label: 'Default overview style',
        help_text:
          'If your event series has more than 50 dates in the future, only the month or week calendar can be used.',
        readonly: false,
      });
      expect(res.body.primary_color).toMatchObject({ value: '#ff0000', readonly: false });
    });

    it('has no PUT and needs organizer.settings.general:write to PATCH', async () => {
      expect(
        (await t.http().put(S).set('Authorization', auth(token)).send({ event_list_type: 'list' })).status,
      ).toBe(405);
      const res = await patch(S, { event_list_type: 'week' }, readOnly);
      expect([res.status, res.body]).toEqual([403, DENIED]);
      expect((await get(S)).body.event_list_type).toBe('list');
    });
  });
});

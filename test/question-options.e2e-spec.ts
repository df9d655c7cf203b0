import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/** `E/questions/{question}/options/` (compat §3.16; permissions per docs/permissions.md). */
describe('question options', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let outsider: string;
  const E = '/api/v1/organizers/org/events/sample';
  const OTHER = '/api/v1/organizers/org/events/other';
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const NOT_FOUND = { detail: 'Not found.' };
  const IDENTIFIER = /^[A-Z0-9]{8}$/;
  const taken = (identifier: string) => ({
    identifier: [`The identifier "${identifier}" is already used for a different option.`],
  });

  const get = (path: string, tok = token) => t.http().get(path).set('Authorization', auth(tok));
  const post = (path: string, body: unknown, tok = token) =>
    t
      .http()
      .post(path)
      .set('Authorization', auth(tok))
      .send(body as object);
  const patch = (path: string, body: object, tok = token) =>
    t.http().patch(path).set('Authorization', auth(tok)).send(body);
  const put = (path: string, body: object, tok = token) =>
    t.http().put(path).set('Authorization', auth(tok)).send(body);
  const del = (path: string, tok = token) => t.http().delete(path).set('Authorization', auth(tok));

  type QuestionBody = { id: number; options: OptionBody[] } & Record<string, unknown>;
  type OptionBody = { id: number; identifier: string; answer: unknown; position: number };

  async function createQuestion(body: object, base = E): Promise<QuestionBody> {
    const res = await post(`${base}/questions/`, { question: 'Size?', type: 'C', items: [], ...body });
    if (res.status !== 201) throw new Error(`createQuestion: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function createOption(questionId: number, body: object, base = E): Promise<OptionBody> {
    const res = await post(`${base}/questions/${questionId}/options/`, { answer: 'x', ...body });
    if (res.status !== 201) throw new Error(`createOption: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** Log entries of a question (options are logged on their question). */
  async function logs(questionId: number): Promise<{ action: string; option: number | null }[]> {
    const rows: { action_type: string; data: { id?: number } }[] = await t.db.query(
      "SELECT action_type, data FROM log_entry WHERE content_type = 'question' AND object_id = $1 ORDER BY id",
      [questionId],
    );
    return rows.map((r) => ({ action: r.action_type, option: r.data.id ?? null }));
  }

  async function optionCount(): Promise<number> {
    const rows: { n: string }[] = await t.db.query('SELECT count(*) AS n FROM question_option');
    return Number(rows[0].n);
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    reader = await teamToken(t, 'org', { limitEvents: ['sample'], eventPermissions: ['event.orders:read'] });
    outsider = await teamToken(t, 'org', { limitEvents: ['other'], eventPermissions: ['event.items:write'] });
  });
  afterAll(() => t.close());

  describe('create and detail', () => {
    it('creates an option with a generated identifier, shows it on detail and in the question', async () => {
      const q = await createQuestion({});
      const res = await post(`${E}/questions/${q.id}/options/`, { answer: 'Small' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        identifier: expect.stringMatching(IDENTIFIER),
        answer: { en: 'Small' },
        position: 0,
      });
      const detail = await get(`${E}/questions/${q.id}/options/${res.body.id}/`);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(res.body);
      expect((await get(`${E}/questions/${q.id}/`)).body.options).toEqual([res.body]);
      expect(await logs(q.id)).toEqual([
        { action: 'pretix.event.question.added', option: null },
        { action: 'pretix.event.question.option.added', option: res.body.id },
      ]);
    });

    it('stores every field, ignoring read-only ones', async () => {
      const q = await createQuestion({});
      const res = await post(`${E}/questions/${q.id}/options/`, {
        id: 999999,
        identifier: 'XL',
        answer: { en: 'Extra large', de: 'Sehr groß' },
        position: 7,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        identifier: 'XL',
        answer: { en: 'Extra large', de: 'Sehr groß' },
        position: 7,
      });
      expect(res.body.id).not.toBe(999999);
      expect((await get(`${E}/questions/${q.id}/options/${res.body.id}/`)).body).toEqual(res.body);
    });

    it('generates the identifier when it is null', async () => {
      const q = await createQuestion({});
      const option = await createOption(q.id, { identifier: null });
      expect(option.identifier).toMatch(IDENTIFIER);
    });

    it('refuses an identifier used by an option of any question of the event, not of another event', async () => {
      const first = await createQuestion({ options: [{ answer: 'a', identifier: 'DFEMJWMJ' }] });
      const second = await createQuestion({});
      const before = await optionCount();
      for (const questionId of [first.id, second.id]) {
        const res = await post(`${E}/questions/${questionId}/options/`, {
          identifier: 'DFEMJWMJ',
          answer: 'A',
        });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(taken('DFEMJWMJ'));
      }
      expect(await optionCount()).toBe(before);
      const elsewhere = await createQuestion({}, OTHER);
      const ok = await createOption(elsewhere.id, { identifier: 'DFEMJWMJ' }, OTHER);
      expect(ok.identifier).toBe('DFEMJWMJ');
    });

    it('gives exactly one 201 to parallel creations with one identifier', async () => {
      const q = await createQuestion({});
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          post(`${E}/questions/${q.id}/options/`, { identifier: 'RACE', answer: 'x' }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, ...Array<number>(9).fill(400)]);
      for (const r of results.filter((x) => x.status === 400)) expect(r.body).toEqual(taken('RACE'));
      const rows: unknown[] = await t.db.query("SELECT 1 FROM question_option WHERE identifier = 'RACE'");
      expect(rows).toHaveLength(1);
    });

    it('names every invalid field', async () => {
      const q = await createQuestion({});
      const before = await optionCount();
      const missing = await post(`${E}/questions/${q.id}/options/`, { position: 1 });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ answer: ['This field is required.'] });
      const bad = await post(`${E}/questions/${q.id}/options/`, {
        answer: ['x'],
        identifier: '',
        position: 'first',
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        identifier: ['This field may not be blank.'],
        answer: ['Invalid i18n string: expected an object or a string.'],
        position: ['A valid integer is required.'],
      });
      const long = await post(`${E}/questions/${q.id}/options/`, {
        answer: 'x',
        identifier: 'A'.repeat(191),
      });
      expect(long.body).toEqual({ identifier: ['Ensure this field has no more than 190 characters.'] });
      const list = await post(`${E}/questions/${q.id}/options/`, [{ answer: 'x' }]);
      expect(list.status).toBe(400);
      expect(list.body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
      expect(await optionCount()).toBe(before);
    });
  });

  describe('list', () => {
    let q: QuestionBody;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      q = await createQuestion({});
      for (const [key, position] of [
        ['late', 5],
        ['early', 1],
        ['tie', 1],
        ['middle', 3],
      ] as const) {
        ids[key] = (await createOption(q.id, { answer: key, position })).id;
      }
      await createQuestion({ options: [{ answer: 'elsewhere' }] });
    });

    const keysOf = (res: { body: { results: { id: number }[] } }) =>
      res.body.results.map((r) => Object.keys(ids).find((k) => ids[k] === r.id));

    it('lists the options of the question in the envelope, ordered by position, id by default', async () => {
      const res = await get(`${E}/questions/${q.id}/options/`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ count: 4, next: null, previous: null, results: expect.any(Array) });
      expect(keysOf(res)).toEqual(['early', 'tie', 'middle', 'late']);
      expect(res.body.results[0]).toEqual((await get(`${E}/questions/${q.id}/options/${ids.early}/`)).body);
    });

    it('orders by id, -id and -position; ignores unknown fields', async () => {
      const byId = Object.keys(ids).sort((a, b) => ids[a] - ids[b]);
      expect(keysOf(await get(`${E}/questions/${q.id}/options/?ordering=id`))).toEqual(byId);
      expect(keysOf(await get(`${E}/questions/${q.id}/options/?ordering=-id`))).toEqual([...byId].reverse());
      expect(keysOf(await get(`${E}/questions/${q.id}/options/?ordering=-position`))).toEqual([
        'late',
        'middle',
        'early',
        'tie',
      ]);
      expect(keysOf(await get(`${E}/questions/${q.id}/options/?ordering=answer`))).toEqual([
        'early',
        'tie',
        'middle',
        'late',
      ]);
    });

    it('accepts the active filter as a boolean without effect (options have no active state)', async () => {
      for (const value of ['true', 'false']) {
        expect(keysOf(await get(`${E}/questions/${q.id}/options/?active=${value}`))).toEqual([
          'early',
          'tie',
          'middle',
          'late',
        ]);
      }
      const bad = await get(`${E}/questions/${q.id}/options/?active=maybe`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ active: ['Must be a valid boolean.'] });
    });

    it('paginates', async () => {
      const first = await get(`${E}/questions/${q.id}/options/?page_size=3`);
      expect(keysOf(first)).toEqual(['early', 'tie', 'middle']);
      expect(first.body.next).toMatch(/\/options\/\?page_size=3&page=2$/);
      const second = await get(`${E}/questions/${q.id}/options/?page_size=3&page=2`);
      expect(keysOf(second)).toEqual(['late']);
      expect(second.body.previous).toMatch(/\/options\/\?page_size=3$/);
    });
  });

  describe('update', () => {
    it('PATCH changes only the sent fields, and a second GET shows the change', async () => {
      const q = await createQuestion({});
      const option = await createOption(q.id, { answer: 'A', identifier: 'PATCH-ME', position: 2 });
      const url = `${E}/questions/${q.id}/options/${option.id}/`;
      const res = await patch(url, { answer: 'B' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...option, answer: { en: 'B' } });
      expect((await get(url)).body).toEqual(res.body);
      expect((await logs(q.id)).map((l) => l.action)).toEqual([
        'pretix.event.question.added',
        'pretix.event.question.option.added',
        'pretix.event.question.option.changed',
      ]);
    });

    it('PATCH that changes nothing logs nothing; a null identifier keeps the current one', async () => {
      const q = await createQuestion({});
      const option = await createOption(q.id, { answer: { en: 'A', de: 'A' }, identifier: 'STAYS' });
      const url = `${E}/questions/${q.id}/options/${option.id}/`;
      const res = await patch(url, { answer: { de: 'A', en: 'A' }, identifier: null, position: 0 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(option);
      expect((await logs(q.id)).map((l) => l.action)).toEqual([
        'pretix.event.question.added',
        'pretix.event.question.option.added',
      ]);
    });

    it('PUT resets the position, keeps an omitted identifier and requires answer', async () => {
      const q = await createQuestion({});
      const option = await createOption(q.id, { answer: 'A', identifier: 'PUT-ME', position: 4 });
      const url = `${E}/questions/${q.id}/options/${option.id}/`;
      const missing = await put(url, { position: 1 });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ answer: ['This field is required.'] });
      const res = await put(url, { answer: 'Z' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: option.id, identifier: 'PUT-ME', answer: { en: 'Z' }, position: 0 });
      expect((await get(url)).body).toEqual(res.body);
    });

    it('refuses an identifier of another option of the event, accepts its own', async () => {
      const q = await createQuestion({ options: [{ answer: 'a', identifier: 'USED-ELSEWHERE' }] });
      const option = await createOption(q.id, { identifier: 'OWN' });
      const url = `${E}/questions/${q.id}/options/${option.id}/`;
      const res = await patch(url, { identifier: 'USED-ELSEWHERE' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(taken('USED-ELSEWHERE'));
      expect((await get(url)).body).toEqual(option);
      const own = await put(url, { identifier: 'OWN', answer: 'x' });
      expect(own.status).toBe(200);
      expect(own.body).toEqual(option);
    });

    it('refuses null for answer and position on PATCH', async () => {
      const q = await createQuestion({});
      const option = await createOption(q.id, {});
      const res = await patch(`${E}/questions/${q.id}/options/${option.id}/`, {
        answer: null,
        position: null,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        answer: ['This field may not be null.'],
        position: ['This field may not be null.'],
      });
    });

    it('follows a changed identifier in the values of dependent questions', async () => {
      const q = await createQuestion({ options: [{ answer: 'Vegan', identifier: 'OLD-ID' }] });
      const dependent = await createQuestion({
        type: 'S',
        dependency_question: q.id,
        dependency_values: ['OLD-ID'],
      });
      const res = await patch(`${E}/questions/${q.id}/options/${q.options[0].id}/`, { identifier: 'NEW-ID' });
      expect(res.status).toBe(200);
      expect(res.body.identifier).toBe('NEW-ID');
      expect((await get(`${E}/questions/${dependent.id}/`)).body).toEqual({
        ...dependent,
        dependency_values: ['NEW-ID'],
        dependency_value: 'NEW-ID',
      });
      expect((await logs(dependent.id)).map((l) => l.action)).toEqual([
        'pretix.event.question.added',
        'pretix.event.question.changed',
      ]);
    });
  });

  describe('delete', () => {
    it('deletes the option, removes it from dependent values, and logs it on the question', async () => {
      const q = await createQuestion({
        options: [
          { answer: 'a', identifier: 'DEL-A' },
          { answer: 'b', identifier: 'DEL-B' },
        ],
      });
      const dependent = await createQuestion({
        type: 'S',
        dependency_question: q.id,
        dependency_values: ['DEL-A', 'DEL-B'],
      });
      const [a, b] = q.options;
      const url = `${E}/questions/${q.id}/options/${a.id}/`;
      const res = await del(url);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await get(url)).status).toBe(404);
      expect((await get(`${E}/questions/${q.id}/`)).body.options).toEqual([b]);
      expect((await get(`${E}/questions/${dependent.id}/`)).body.dependency_values).toEqual(['DEL-B']);
      expect((await logs(q.id)).slice(-1)).toEqual([
        { action: 'pretix.event.question.option.deleted', option: a.id },
      ]);
      expect((await del(url)).status).toBe(404);
    });

    it('moves the question list Last-Modified on option writes', async () => {
      const base = '/api/v1/organizers/org/events/conditional';
      await createEvent(t, token, 'org', { slug: 'conditional' });
      const q = await createQuestion({}, base);
      const first = await get(`${base}/questions/`);
      const lastModified = first.headers['last-modified'];
      expect(typeof lastModified).toBe('string');
      expect((await get(`${base}/questions/`).set('If-Modified-Since', lastModified)).status).toBe(304);
      await new Promise((r) => setTimeout(r, 1100));
      await createOption(q.id, {}, base);
      const fresh = await get(`${base}/questions/`).set('If-Modified-Since', lastModified);
      expect(fresh.status).toBe(200);
      expect(Date.parse(fresh.headers['last-modified'])).toBeGreaterThan(Date.parse(lastModified));
    });
  });

  describe('scoping', () => {
    let own: QuestionBody;
    let sibling: QuestionBody;
    let foreign: QuestionBody;

    beforeAll(async () => {
      own = await createQuestion({ options: [{ answer: 'own' }] });
      sibling = await createQuestion({ options: [{ answer: 'sibling' }] });
      foreign = await createQuestion({ options: [{ answer: 'foreign' }] }, OTHER);
    });

    it.each(['list', 'get', 'post', 'patch', 'put', 'delete'] as const)(
      '%s under a question of another event answers 403',
      async (method) => {
        const list = `${E}/questions/${foreign.id}/options/`;
        const url = `${list}${foreign.options[0].id}/`;
        const res =
          method === 'list'
            ? await get(list)
            : method === 'get'
              ? await get(url)
              : method === 'post'
                ? await post(list, { answer: 'x' })
                : method === 'delete'
                  ? await del(url)
                  : method === 'patch'
                    ? await patch(url, { answer: 'hijack' })
                    : await put(url, { answer: 'hijack' });
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
        expect((await get(`${OTHER}/questions/${foreign.id}/`)).body).toEqual(foreign);
      },
    );

    it.each(['get', 'patch', 'put', 'delete'] as const)(
      '%s of an option of another question of the same event answers 404',
      async (method) => {
        const url = `${E}/questions/${own.id}/options/${sibling.options[0].id}/`;
        const res =
          method === 'get'
            ? await get(url)
            : method === 'delete'
              ? await del(url)
              : method === 'patch'
                ? await patch(url, { answer: 'hijack' })
                : await put(url, { answer: 'hijack' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
        expect((await get(`${E}/questions/${sibling.id}/`)).body).toEqual(sibling);
      },
    );

    it.each(['abc', '0', '99999999999', '999999'])('answers 403 for the question id %s', async (id) => {
      for (const res of [
        await get(`${E}/questions/${id}/options/`),
        await post(`${E}/questions/${id}/options/`, { answer: 'x' }),
        await get(`${E}/questions/${id}/options/${own.options[0].id}/`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
    });

    it.each(['abc', '1.5', '-1', '999999'])('answers 404 for the option id %s', async (id) => {
      const url = `${E}/questions/${own.id}/options/${id}/`;
      expect((await get(url)).status).toBe(404);
      expect((await patch(url, { position: 1 })).status).toBe(404);
      expect((await put(url, { answer: 'x' })).status).toBe(404);
      expect((await del(url)).status).toBe(404);
    });
  });

  describe('permissions', () => {
    let q: QuestionBody;

    beforeAll(async () => {
      q = await createQuestion({ options: [{ answer: 'perm' }] });
    });

    it('answers 401 without credentials', async () => {
      const list = `${E}/questions/${q.id}/options/`;
      const res = await t.http().get(list);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect((await t.http().get(`${list}${q.options[0].id}/`)).status).toBe(401);
      expect((await t.http().post(list).send({ answer: 'x' })).status).toBe(401);
      expect((await t.http().patch(`${list}${q.options[0].id}/`).send({ answer: 'x' })).status).toBe(401);
      expect((await t.http().delete(`${list}${q.options[0].id}/`)).status).toBe(401);
    });

    it('lets a team with event access but without event.items:write read', async () => {
      const list = await get(`${E}/questions/${q.id}/options/`, reader);
      expect(list.status).toBe(200);
      expect(list.body.results).toEqual(q.options);
      const detail = await get(`${E}/questions/${q.id}/options/${q.options[0].id}/`, reader);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(q.options[0]);
    });

    it('answers 403 to every write without event.items:write, changing nothing', async () => {
      const before = await optionCount();
      const list = `${E}/questions/${q.id}/options/`;
      const url = `${list}${q.options[0].id}/`;
      for (const res of [
        await post(list, { answer: 'x' }, reader),
        await patch(url, { answer: 'x' }, reader),
        await put(url, { answer: 'x' }, reader),
        await del(url, reader),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(url)).body).toEqual(q.options[0]);
      expect(await optionCount()).toBe(before);
    });

    it('answers 403 for an event outside the team limit, and for unknown organizer or event', async () => {
      const list = `${E}/questions/${q.id}/options/`;
      const url = `${list}${q.options[0].id}/`;
      for (const res of [
        await get(list, outsider),
        await get(url, outsider),
        await post(list, { answer: 'x' }, outsider),
        await patch(url, { answer: 'x' }, outsider),
        await del(url, outsider),
        await get(`/api/v1/organizers/nope/events/sample/questions/${q.id}/options/`),
        await post(`/api/v1/organizers/org/events/nope/questions/${q.id}/options/`, { answer: 'x' }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(url)).body).toEqual(q.options[0]);
    });
  });
});

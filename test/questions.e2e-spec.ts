import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { auth, bootstrapOrganizer, createEvent, teamToken } from './factories';
import { startTestApp, TestApp } from './harness';

/** `E/questions/` (compat §3.15; permissions per docs/permissions.md). */
describe('questions', () => {
  let t: TestApp;
  let token: string;
  let reader: string;
  let outsider: string;
  const E = '/api/v1/organizers/org/events/sample';
  const OTHER = '/api/v1/organizers/org/events/other';
  const DENIED = { detail: 'You do not have permission to perform this action.' };
  const NOT_FOUND = { detail: 'Not found.' };
  const OPTIONS_REFUSED = {
    non_field_errors: [
      'Updating options via PATCH/PUT is not supported. Please use the dedicated nested endpoint.',
    ],
  };
  const IDENTIFIER = /^[A-Z0-9]{8}$/;

  /** The representation of `{"question": {"en": "Name?"}, "type": "S", "items": []}` (compat §3.15 defaults). */
  const DEFAULT_QUESTION = {
    question: { en: 'Name?' },
    type: 'S',
    required: false,
    items: [],
    options: [],
    position: 0,
    ask_during_checkin: false,
    show_during_checkin: false,
    identifier: expect.stringMatching(IDENTIFIER),
    dependency_question: null,
    dependency_values: [],
    hidden: false,
    dependency_value: null,
    print_on_invoice: false,
    help_text: {},
    valid_number_min: null,
    valid_number_max: null,
    valid_date_min: null,
    valid_date_max: null,
    valid_datetime_min: null,
    valid_datetime_max: null,
    valid_string_length_min: null,
    valid_string_length_max: null,
    valid_file_portrait: false,
  };

  let itemA: number;
  let itemB: number;
  let foreignItem: number;

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

  type QuestionBody = { id: number; identifier: string } & Record<string, unknown>;
  type OptionBody = { id: number; identifier: string; answer: unknown; position: number };

  async function createQuestion(body: object, base = E): Promise<QuestionBody> {
    const res = await post(`${base}/questions/`, { question: 'Name?', type: 'S', items: [], ...body });
    if (res.status !== 201) throw new Error(`createQuestion: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** An item of the event (written straight to the table: this file tests questions, not the item API). */
  async function createItem(base: string, name: string): Promise<number> {
    const slug = base.split('/').pop();
    const rows: { id: number }[] = await t.db.query(
      `INSERT INTO item (event_id, name, default_price)
       SELECT e.id, $2::jsonb, 10 FROM event e JOIN organizer o ON o.id = e.organizer_id
       WHERE o.slug = 'org' AND e.slug = $1 RETURNING id`,
      [slug, JSON.stringify({ en: name })],
    );
    return rows[0].id;
  }

  async function logActions(objectId: number): Promise<string[]> {
    const rows: { action_type: string }[] = await t.db.query(
      "SELECT action_type FROM log_entry WHERE content_type = 'question' AND object_id = $1 ORDER BY id",
      [objectId],
    );
    return rows.map((r) => r.action_type);
  }

  async function count(table: 'question' | 'question_option'): Promise<number> {
    const rows: { n: string }[] = await t.db.query(`SELECT count(*) AS n FROM ${table}`);
    return Number(rows[0].n);
  }

  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await bootstrapOrganizer(t, 'org'));
    await createEvent(t, token, 'org', { slug: 'sample' });
    await createEvent(t, token, 'org', { slug: 'other' });
    reader = await teamToken(t, 'org', { limitEvents: ['sample'], eventPermissions: ['event.orders:read'] });
    outsider = await teamToken(t, 'org', { limitEvents: ['other'], eventPermissions: ['event.items:write'] });
    itemA = await createItem(E, 'A');
    itemB = await createItem(E, 'B');
    foreignItem = await createItem(OTHER, 'Foreign');
  });
  afterAll(() => t.close());

  describe('create and detail', () => {
    it('creates a minimal question with the full default representation and shows it on detail', async () => {
      const res = await post(`${E}/questions/`, { question: { en: 'Name?' }, type: 'S', items: [] });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.any(Number), ...DEFAULT_QUESTION });
      const again = await get(`${E}/questions/${res.body.id}/`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
      expect(await logActions(res.body.id)).toEqual(['pretix.event.question.added']);
    });

    it('stores every writable field and shows it on detail', async () => {
      const res = await post(`${E}/questions/`, {
        question: { en: 'Age?', de: 'Alter?' },
        help_text: 'In years',
        type: 'N',
        required: true,
        position: 4,
        items: [itemB, itemA, itemB],
        identifier: 'AGE',
        ask_during_checkin: true,
        show_during_checkin: true,
        hidden: true,
        print_on_invoice: true,
        valid_number_min: '1.5',
        valid_number_max: 120,
        valid_date_min: '2030-01-01',
        valid_date_max: '2030-12-31',
        valid_datetime_min: '2030-01-01T10:00:00+01:00',
        valid_datetime_max: '2030-12-31T23:59:59Z',
        valid_file_portrait: true,
        valid_string_length_min: 0,
        valid_string_length_max: 20,
        id: 999999,
      });
      expect(res.status).toBe(201);
      const expected = {
        ...DEFAULT_QUESTION,
        id: res.body.id,
        question: { en: 'Age?', de: 'Alter?' },
        help_text: { en: 'In years' },
        type: 'N',
        required: true,
        position: 4,
        items: [itemA, itemB].sort((a, b) => a - b),
        identifier: 'AGE',
        ask_during_checkin: true,
        show_during_checkin: true,
        hidden: true,
        print_on_invoice: true,
        valid_number_min: '1.500000',
        valid_number_max: '120.000000',
        valid_date_min: '2030-01-01',
        valid_date_max: '2030-12-31',
        valid_datetime_min: '2030-01-01T09:00:00Z',
        valid_datetime_max: '2030-12-31T23:59:59Z',
        valid_file_portrait: true,
        valid_string_length_min: 0,
        valid_string_length_max: 20,
      };
      expect(res.body).toEqual(expected);
      expect(res.body.id).not.toBe(999999);
      expect((await get(`${E}/questions/${res.body.id}/`)).body).toEqual(expected);
      const rows: { item_id: number }[] = await t.db.query(
        'SELECT item_id FROM question_item WHERE question_id = $1 ORDER BY item_id',
        [res.body.id],
      );
      expect(rows.map((r) => r.item_id)).toEqual(expected.items);
    });

    it('creates inline options with the question, generating missing identifiers', async () => {
      const res = await post(`${E}/questions/`, {
        question: 'Size?',
        type: 'C',
        items: [itemA],
        options: [
          { answer: 'S', identifier: 'SIZE-S', position: 2, id: 77 },
          { answer: { en: 'M', de: 'M' } },
          { answer: 'L', position: 1, identifier: null },
        ],
      });
      expect(res.status).toBe(201);
      const options = res.body.options as OptionBody[];
      expect(options).toEqual([
        {
          id: expect.any(Number),
          identifier: expect.stringMatching(IDENTIFIER),
          answer: { en: 'M', de: 'M' },
          position: 0,
        },
        {
          id: expect.any(Number),
          identifier: expect.stringMatching(IDENTIFIER),
          answer: { en: 'L' },
          position: 1,
        },
        { id: expect.any(Number), identifier: 'SIZE-S', answer: { en: 'S' }, position: 2 },
      ]);
      expect(new Set(options.map((o) => o.identifier)).size).toBe(3);
      expect((await get(`${E}/questions/${res.body.id}/`)).body).toEqual(res.body);
      const rows: { id: number; event_id: number }[] = await t.db.query(
        'SELECT q.id, o.event_id FROM question_option o JOIN question q ON q.id = o.question_id WHERE q.id = $1',
        [res.body.id],
      );
      expect(rows).toHaveLength(3);
      expect(await logActions(res.body.id)).toEqual(['pretix.event.question.added']);
    });

    it('accepts options on a non-choice question (compat: not enforced)', async () => {
      const q = await createQuestion({ type: 'S', options: [{ answer: 'x' }] });
      expect(q.options).toEqual([
        {
          id: expect.any(Number),
          identifier: expect.stringMatching(IDENTIFIER),
          answer: { en: 'x' },
          position: 0,
        },
      ]);
    });

    it('refuses option identifiers used in the event or repeated in the list, aligned per option, creating nothing', async () => {
      await createQuestion({ type: 'C', options: [{ answer: 'x', identifier: 'TAKEN' }] });
      const before = [await count('question'), await count('question_option')];
      const res = await post(`${E}/questions/`, {
        question: 'Q',
        type: 'M',
        items: [],
        options: [
          { answer: 'a', identifier: 'FRESH' },
          { answer: 'b' },
          { answer: 'c', identifier: 'FRESH' },
          { answer: 'd', identifier: 'TAKEN' },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        options: [
          {},
          {},
          { identifier: ['The identifier "FRESH" is already used for a different option.'] },
          { identifier: ['The identifier "TAKEN" is already used for a different option.'] },
        ],
      });
      expect([await count('question'), await count('question_option')]).toEqual(before);
    });

    it('accepts an option identifier that is used only in another event', async () => {
      await createQuestion({ type: 'C', options: [{ answer: 'x', identifier: 'ELSEWHERE' }] }, OTHER);
      const q = await createQuestion({ type: 'C', options: [{ answer: 'x', identifier: 'ELSEWHERE' }] });
      expect((q.options as OptionBody[])[0].identifier).toBe('ELSEWHERE');
    });

    it('reports invalid inline options aligned with the list, together with other field errors', async () => {
      const before = [await count('question'), await count('question_option')];
      const res = await post(`${E}/questions/`, {
        question: 'Q',
        items: [],
        options: [{ answer: 'ok' }, {}, 'x', { answer: 'y', position: 'a', identifier: '' }, null],
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        type: ['This field is required.'],
        options: [
          {},
          { answer: ['This field is required.'] },
          ['Invalid data. Expected a dictionary, but got str.'],
          { identifier: ['This field may not be blank.'], position: ['A valid integer is required.'] },
          ['Invalid data. Expected a dictionary, but got null.'],
        ],
      });
      expect([await count('question'), await count('question_option')]).toEqual(before);
    });

    it.each([
      ['a string', 'x', ['Expected a list of items but got type "str".']],
      ['an object', { answer: 'x' }, ['Expected a list of items but got type "dict".']],
      ['null', null, ['This field may not be null.']],
      ['a list of lists', [[{ answer: 'x' }]], ['Invalid data. Expected a dictionary, but got list.']],
    ])('refuses options given as %s', async (_label, options, errors) => {
      const res = await post(`${E}/questions/`, { question: 'Q', type: 'C', items: [], options });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ options: errors });
    });

    it('requires question, type and items', async () => {
      const res = await post(`${E}/questions/`, { position: 1 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        question: ['This field is required.'],
        type: ['This field is required.'],
        items: ['This field is required.'],
      });
      const nulls = await post(`${E}/questions/`, { question: null, type: null, items: null });
      expect(nulls.body).toEqual({
        question: ['This field may not be null.'],
        type: ['This field may not be null.'],
        items: ['This field may not be null.'],
      });
    });

    it('names every invalid field', async () => {
      const before = await count('question');
      const res = await post(`${E}/questions/`, {
        question: 5,
        type: 'X',
        items: 'all',
        required: 'yes',
        position: 1.5,
        identifier: '',
        valid_number_min: 'abc',
        valid_number_max: '1.1234567',
        valid_date_min: '2030-02-30',
        valid_date_max: '2030-01-01T00:00:00Z',
        valid_datetime_min: 'tomorrow',
        valid_string_length_min: -1,
        valid_string_length_max: 'ten',
        dependency_question: 'q',
        dependency_values: 'True',
        dependency_value: 1,
        help_text: ['x'],
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        question: ['Invalid i18n string: expected an object or a string.'],
        help_text: ['Invalid i18n string: expected an object or a string.'],
        type: ['"X" is not a valid choice.'],
        required: ['Must be a valid boolean.'],
        position: ['A valid integer is required.'],
        items: ['Expected a list of items but got type "str".'],
        identifier: ['This field may not be blank.'],
        valid_number_min: ['A valid number is required.'],
        valid_number_max: ['Ensure that there are no more than 6 decimal places.'],
        valid_date_min: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
        valid_date_max: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
        valid_datetime_min: [
          'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
        ],
        valid_string_length_min: ['Ensure this value is greater than or equal to 0.'],
        valid_string_length_max: ['A valid integer is required.'],
        dependency_question: ['A valid integer is required.'],
        dependency_values: ['Expected a list of items but got type "str".'],
        dependency_value: ['Not a valid string.'],
      });
      expect(await count('question')).toBe(before);
    });

    it('refuses a question identifier already used in the event, but not one of another event', async () => {
      await createQuestion({ identifier: 'DUP' });
      const res = await post(`${E}/questions/`, { question: 'Q', type: 'S', items: [], identifier: 'DUP' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ identifier: ['This identifier is already used for a different question.'] });
      const other = await createQuestion({ identifier: 'DUP' }, OTHER);
      expect(other.identifier).toBe('DUP');
    });

    it('generates the identifier when it is null', async () => {
      const q = await createQuestion({ identifier: null });
      expect(q.identifier).toMatch(IDENTIFIER);
    });

    it.each([
      ['an item of another event', () => [itemA, foreignItem]],
      ['an unknown item', () => [999999]],
    ])('refuses %s in items', async (_label, items) => {
      const before = await count('question');
      const res = await post(`${E}/questions/`, { question: 'Q', type: 'S', items: items() });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: ['One or more items do not belong to this event.'] });
      expect(await count('question')).toBe(before);
    });

    it('asks a file question during check-in (pretix 2026.5: every type may be asked)', async () => {
      const res = await post(`${E}/questions/`, {
        question: 'Photo',
        type: 'F',
        items: [],
        ask_during_checkin: true,
      });
      expect(res.status).toBe(201);
      expect([res.body.type, res.body.ask_during_checkin]).toEqual(['F', true]);
      const ok = await createQuestion({ type: 'F', ask_during_checkin: false, valid_file_portrait: true });
      expect(ok.valid_file_portrait).toBe(true);
    });
  });

  describe('dependencies', () => {
    let bool: QuestionBody;
    let choice: QuestionBody;
    let text: QuestionBody;
    let checkin: QuestionBody;

    beforeAll(async () => {
      bool = await createQuestion({ question: 'Student?', type: 'B' });
      choice = await createQuestion({
        question: 'Meal?',
        type: 'C',
        options: [
          { answer: 'Vegan', identifier: 'VEGAN' },
          { answer: 'Meat', identifier: 'MEAT' },
        ],
      });
      text = await createQuestion({ question: 'Name', type: 'S' });
      checkin = await createQuestion({ question: 'At the door', type: 'B', ask_during_checkin: true });
    });

    it('creates a question depending on a boolean question with ["True"]', async () => {
      const res = await post(`${E}/questions/`, {
        question: 'Student id',
        type: 'S',
        items: [],
        dependency_question: bool.id,
        dependency_values: ['True'],
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        dependency_question: bool.id,
        dependency_values: ['True'],
        dependency_value: 'True',
      });
      expect((await get(`${E}/questions/${res.body.id}/`)).body).toEqual(res.body);
    });

    it('creates a question depending on option identifiers of a choice question', async () => {
      const q = await createQuestion({
        dependency_question: choice.id,
        dependency_values: ['MEAT', 'VEGAN', 'MEAT'],
      });
      expect([q.dependency_values, q.dependency_value]).toEqual([['MEAT', 'VEGAN'], 'MEAT']);
    });

    it.each([
      [['1'], 'A dependency on a boolean question needs exactly one of the values "True" or "False".'],
      [
        ['True', 'False'],
        'A dependency on a boolean question needs exactly one of the values "True" or "False".',
      ],
      [['true'], 'A dependency on a boolean question needs exactly one of the values "True" or "False".'],
      [[], 'At least one value is required when a dependency question is set.'],
    ])('refuses the values %j for a boolean dependency', async (values, message) => {
      const res = await post(`${E}/questions/`, {
        question: 'Q',
        type: 'S',
        items: [],
        dependency_question: bool.id,
        dependency_values: values,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ dependency_values: [message] });
    });

    it('refuses values that are not option identifiers of the choice question depended on', async () => {
      const foreignOption = await createQuestion({
        type: 'C',
        options: [{ answer: 'x', identifier: 'ELSE' }],
      });
      expect(foreignOption.id).toBeGreaterThan(0);
      for (const value of ['FISH', 'ELSE', 'True']) {
        const res = await post(`${E}/questions/`, {
          question: 'Q',
          type: 'S',
          items: [],
          dependency_question: choice.id,
          dependency_values: ['VEGAN', value],
        });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          dependency_values: [`"${value}" is not the identifier of an option of the dependency question.`],
        });
      }
    });

    it('lets the legacy dependency_value win over dependency_values and reports its errors under its name', async () => {
      const q = await createQuestion({
        dependency_question: bool.id,
        dependency_values: ['True'],
        dependency_value: 'False',
      });
      expect([q.dependency_values, q.dependency_value]).toEqual([['False'], 'False']);
      const ignoredNull = await createQuestion({
        dependency_question: bool.id,
        dependency_values: ['True'],
        dependency_value: null,
      });
      expect(ignoredNull.dependency_values).toEqual(['True']);
      const bad = await post(`${E}/questions/`, {
        question: 'Q',
        type: 'S',
        items: [],
        dependency_question: bool.id,
        dependency_value: '1',
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        dependency_value: [
          'A dependency on a boolean question needs exactly one of the values "True" or "False".',
        ],
      });
      const patched = await patch(`${E}/questions/${q.id}/`, { dependency_value: 'True' });
      expect(patched.status).toBe(200);
      expect([patched.body.dependency_values, patched.body.dependency_value]).toEqual([['True'], 'True']);
    });

    it('refuses a dependency on a question that is not boolean or choice', async () => {
      const res = await post(`${E}/questions/`, {
        question: 'Q',
        type: 'S',
        items: [],
        dependency_question: text.id,
        dependency_values: ['x'],
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        dependency_question: ['Question dependencies can only be set to boolean or choice questions.'],
      });
    });

    it('refuses an unknown dependency question and one of another event', async () => {
      const foreign = await createQuestion({ type: 'B' }, OTHER);
      for (const id of [999999, foreign.id]) {
        const res = await post(`${E}/questions/`, {
          question: 'Q',
          type: 'S',
          items: [],
          dependency_question: id,
          dependency_values: ['True'],
        });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ dependency_question: [`Invalid pk "${id}" - object does not exist.`] });
      }
    });

    it('refuses a dependency together with ask_during_checkin', async () => {
      const res = await post(`${E}/questions/`, {
        question: 'Q',
        type: 'S',
        items: [],
        ask_during_checkin: true,
        dependency_question: bool.id,
        dependency_value: '1',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: ['Dependencies are not supported during check-in.'] });
    });

    it('refuses a dependency on a question asked during check-in', async () => {
      const res = await post(`${E}/questions/`, {
        question: 'Q',
        type: 'S',
        items: [],
        dependency_question: checkin.id,
        dependency_values: ['True'],
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        non_field_errors: ['Question cannot depend on a question asked during check-in.'],
      });
    });

    it('refuses a question depending on itself', async () => {
      const q = await createQuestion({ type: 'B' });
      const res = await patch(`${E}/questions/${q.id}/`, {
        dependency_question: q.id,
        dependency_values: ['True'],
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ dependency_question: ['A question cannot depend on itself.'] });
      expect((await get(`${E}/questions/${q.id}/`)).body).toEqual(q);
    });

    it('refuses circular dependencies, walking the whole chain', async () => {
      const first = await createQuestion({ type: 'B' });
      const second = await createQuestion({
        type: 'B',
        dependency_question: first.id,
        dependency_values: ['True'],
      });
      const third = await createQuestion({
        type: 'B',
        dependency_question: second.id,
        dependency_values: ['False'],
      });
      for (const target of [second, third]) {
        const res = await patch(`${E}/questions/${first.id}/`, {
          dependency_question: target.id,
          dependency_values: ['True'],
        });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ non_field_errors: ['Circular dependency between questions detected.'] });
      }
      expect((await get(`${E}/questions/${first.id}/`)).body).toEqual(first);
      const unrelated = await createQuestion({ type: 'B' });
      const ok = await patch(`${E}/questions/${first.id}/`, {
        dependency_question: unrelated.id,
        dependency_values: ['True'],
      });
      expect(ok.status).toBe(200);
      expect(ok.body.dependency_question).toBe(unrelated.id);
    });

    it('lets at most one of two opposite dependency writes through when they run in parallel', async () => {
      for (let round = 0; round < 5; round++) {
        const a = await createQuestion({ type: 'B' });
        const b = await createQuestion({ type: 'B' });
        const [toB, toA] = await Promise.all([
          patch(`${E}/questions/${a.id}/`, { dependency_question: b.id, dependency_values: ['True'] }),
          patch(`${E}/questions/${b.id}/`, { dependency_question: a.id, dependency_values: ['True'] }),
        ]);
        expect([toB.status, toA.status].sort()).toEqual([200, 400]);
        const loser = toB.status === 400 ? toB : toA;
        expect(loser.body).toEqual({ non_field_errors: ['Circular dependency between questions detected.'] });
      }
    });

    it('keeps the questions others depend on boolean or choice, and off check-in', async () => {
      const target = await createQuestion({
        type: 'C',
        options: [{ answer: 'a', identifier: 'KEEP-A' }],
      });
      const boolTarget = await createQuestion({ type: 'B' });
      await createQuestion({ dependency_question: target.id, dependency_values: ['KEEP-A'] });
      await createQuestion({ dependency_question: boolTarget.id, dependency_values: ['False'] });
      const toText = await patch(`${E}/questions/${target.id}/`, { type: 'S' });
      expect(toText.status).toBe(400);
      expect(toText.body).toEqual({
        type: ['Other questions depend on this question, so it must stay a choice question.'],
      });
      const boolToChoice = await patch(`${E}/questions/${boolTarget.id}/`, { type: 'C' });
      expect(boolToChoice.body).toEqual({
        type: ['Other questions depend on this question, so it must stay a boolean question.'],
      });
      const atCheckin = await patch(`${E}/questions/${target.id}/`, { ask_during_checkin: true });
      expect(atCheckin.status).toBe(400);
      expect(atCheckin.body).toEqual({
        non_field_errors: ['A question that other questions depend on cannot be asked during check-in.'],
      });
      const toMultiple = await patch(`${E}/questions/${target.id}/`, { type: 'M' });
      expect(toMultiple.status).toBe(200);
      expect(toMultiple.body.type).toBe('M');
    });

    it('clears the values when the dependency is removed', async () => {
      const q = await createQuestion({ dependency_question: bool.id, dependency_values: ['True'] });
      const res = await patch(`${E}/questions/${q.id}/`, { dependency_question: null });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...q,
        dependency_question: null,
        dependency_values: [],
        dependency_value: null,
      });
      expect((await get(`${E}/questions/${q.id}/`)).body).toEqual(res.body);
    });
  });

  describe('list', () => {
    const base = '/api/v1/organizers/org/events/listing';
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      await createEvent(t, token, 'org', { slug: 'listing' });
      const item = await createItem(base, 'Listed');
      for (const [key, body] of [
        ['late', { position: 5, identifier: 'LATE', required: true }],
        ['early', { position: 1, identifier: 'EARLY', items: [item], options: [{ answer: 'o' }] }],
        ['checkin', { position: 1, identifier: 'CHECKIN', type: 'B', ask_during_checkin: true }],
        [
          'middle',
          { position: 3, identifier: 'MIDDLE', options: [{ answer: 'b', position: 1 }, { answer: 'a' }] },
        ],
      ] as const) {
        ids[key] = (await createQuestion(body, base)).id;
      }
    });

    const keysOf = (res: { body: { results: { id: number }[] } }) =>
      res.body.results.map((r) => Object.keys(ids).find((k) => ids[k] === r.id));

    it('lists in the envelope ordered by position, id by default, with items and options', async () => {
      const res = await get(`${base}/questions/`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: 4,
        next: null,
        previous: null,
        results: expect.any(Array),
      });
      expect(keysOf(res)).toEqual(['early', 'checkin', 'middle', 'late']);
      for (const q of res.body.results as QuestionBody[]) {
        expect(q).toEqual((await get(`${base}/questions/${q.id}/`)).body);
      }
      const middle = (res.body.results as QuestionBody[])[2];
      expect((middle.options as OptionBody[]).map((o) => o.answer)).toEqual([{ en: 'a' }, { en: 'b' }]);
    });

    it('orders by id, -id and -position; ignores unknown fields', async () => {
      const byId = Object.keys(ids).sort((a, b) => ids[a] - ids[b]);
      expect(keysOf(await get(`${base}/questions/?ordering=id`))).toEqual(byId);
      expect(keysOf(await get(`${base}/questions/?ordering=-id`))).toEqual([...byId].reverse());
      expect(keysOf(await get(`${base}/questions/?ordering=-position`))).toEqual([
        'late',
        'middle',
        'early',
        'checkin',
      ]);
      expect(keysOf(await get(`${base}/questions/?ordering=identifier`))).toEqual([
        'early',
        'checkin',
        'middle',
        'late',
      ]);
    });

    it('filters by identifier, required and ask_during_checkin', async () => {
      expect(keysOf(await get(`${base}/questions/?identifier=MIDDLE`))).toEqual(['middle']);
      expect(keysOf(await get(`${base}/questions/?identifier=middle`))).toEqual([]);
      expect(keysOf(await get(`${base}/questions/?required=true`))).toEqual(['late']);
      expect(keysOf(await get(`${base}/questions/?required=false`))).toEqual(['early', 'checkin', 'middle']);
      expect(keysOf(await get(`${base}/questions/?ask_during_checkin=true`))).toEqual(['checkin']);
      expect(keysOf(await get(`${base}/questions/?ask_during_checkin=false&required=false`))).toEqual([
        'early',
        'middle',
      ]);
    });

    it.each(['required', 'ask_during_checkin'])('answers 400 for a non-boolean %s', async (param) => {
      const res = await get(`${base}/questions/?${param}=maybe`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ [param]: ['Must be a valid boolean.'] });
    });

    it('paginates', async () => {
      const first = await get(`${base}/questions/?page_size=3`);
      expect(keysOf(first)).toEqual(['early', 'checkin', 'middle']);
      expect(first.body.next).toMatch(/\/questions\/\?page_size=3&page=2$/);
      const second = await get(`${base}/questions/?page_size=3&page=2`);
      expect(keysOf(second)).toEqual(['late']);
      expect(second.body.next).toBeNull();
      expect((await get(`${base}/questions/?page=3`)).status).toBe(404);
    });

    it('shows only questions of the event in the URL', async () => {
      for (const identifier of ['EARLY', 'LATE', 'MIDDLE', 'CHECKIN']) {
        const res = await get(`${E}/questions/?identifier=${identifier}`);
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(0);
      }
      expect((await get(`${base}/questions/?identifier=EARLY`)).body.count).toBe(1);
    });

    it('runs the same number of SQL statements whatever the page size', async () => {
      const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
      try {
        const measure = async (query: string) => {
          spy.mockClear();
          const res = await get(`${base}/questions/?${query}`);
          expect(res.status).toBe(200);
          return { rows: res.body.results.length as number, statements: spy.mock.calls.length };
        };
        const one = await measure('page_size=1');
        const three = await measure('page_size=3');
        expect(one.rows).toBe(1);
        expect(three.rows).toBe(3);
        expect(three.statements).toBe(one.statements);
      } finally {
        spy.mockRestore();
      }
    });

    it('answers 304 when nothing changed since Last-Modified, and 200 after a change', async () => {
      const first = await get(`${base}/questions/`);
      const lastModified = first.headers['last-modified'];
      expect(typeof lastModified).toBe('string');
      const notModified = await get(`${base}/questions/`).set('If-Modified-Since', lastModified);
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
      await new Promise((r) => setTimeout(r, 1100));
      expect((await patch(`${base}/questions/${ids.late}/`, { position: 6 })).status).toBe(200);
      const fresh = await get(`${base}/questions/`).set('If-Modified-Since', lastModified);
      expect(fresh.status).toBe(200);
      expect(Date.parse(fresh.headers['last-modified'])).toBeGreaterThan(Date.parse(lastModified));
      await patch(`${base}/questions/${ids.late}/`, { position: 5 });
    });
  });

  describe('update', () => {
    it('PATCH changes only the sent fields, and a second GET shows the change', async () => {
      const q = await createQuestion({
        type: 'C',
        items: [itemA],
        options: [{ answer: 'x' }],
        help_text: 'h',
      });
      const res = await patch(`${E}/questions/${q.id}/`, {
        question: 'Renamed',
        items: [itemB],
        required: true,
      });
      expect(res.status).toBe(200);
      const expected = { ...q, question: { en: 'Renamed' }, items: [itemB], required: true };
      expect(res.body).toEqual(expected);
      expect((await get(`${E}/questions/${q.id}/`)).body).toEqual(expected);
      expect(await logActions(q.id)).toEqual([
        'pretix.event.question.added',
        'pretix.event.question.changed',
      ]);
    });

    it('PATCH that changes nothing logs nothing', async () => {
      const q = await createQuestion({
        question: { en: 'Same', de: 'Gleich' },
        items: [itemA, itemB],
        valid_number_min: '2.5',
        valid_datetime_min: '2030-01-01T00:00:00Z',
      });
      const res = await patch(`${E}/questions/${q.id}/`, {
        question: { de: 'Gleich', en: 'Same' },
        items: [itemB, itemA],
        valid_number_min: 2.5,
        valid_datetime_min: '2030-01-01T01:00:00+01:00',
        identifier: null,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(q);
      expect(await logActions(q.id)).toEqual(['pretix.event.question.added']);
    });

    it('PUT resets omitted optional fields to their defaults and keeps identifier and options', async () => {
      const created = await post(`${E}/questions/`, {
        question: 'Full',
        type: 'N',
        items: [itemA],
        required: true,
        position: 3,
        hidden: true,
        help_text: 'help',
        valid_number_max: 9,
        valid_string_length_max: 3,
        options: [{ answer: 'kept' }],
      });
      expect(created.status).toBe(201);
      const res = await put(`${E}/questions/${created.body.id}/`, {
        question: 'Name?',
        type: 'S',
        items: [],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...DEFAULT_QUESTION,
        id: created.body.id,
        identifier: created.body.identifier,
        options: created.body.options,
      });
      expect((await get(`${E}/questions/${created.body.id}/`)).body).toEqual(res.body);
    });

    it('PUT requires question, type and items', async () => {
      const q = await createQuestion({});
      const res = await put(`${E}/questions/${q.id}/`, { position: 3 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        question: ['This field is required.'],
        type: ['This field is required.'],
        items: ['This field is required.'],
      });
    });

    it('PATCH refuses null for non-nullable fields and accepts it for nullable ones', async () => {
      const q = await createQuestion({
        valid_number_min: 1,
        valid_date_max: '2030-01-01',
        identifier: 'KEEPME',
      });
      const bad = await patch(`${E}/questions/${q.id}/`, {
        question: null,
        type: null,
        items: null,
        required: null,
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        question: ['This field may not be null.'],
        type: ['This field may not be null.'],
        required: ['This field may not be null.'],
        items: ['This field may not be null.'],
      });
      const ok = await patch(`${E}/questions/${q.id}/`, {
        valid_number_min: null,
        valid_date_max: null,
        identifier: null,
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ ...q, valid_number_min: null, valid_date_max: null });
    });

    it.each([
      ['PATCH', { options: [] }],
      ['PATCH', { options: null, position: 9 }],
      ['PATCH', { options: 'x' }],
      ['PUT', { question: 'x', type: 'S', items: [], options: [{ answer: 'y' }] }],
    ] as const)('%s with %j answers 400 non_field_errors and changes nothing', async (method, body) => {
      const q = await createQuestion({ type: 'C', options: [{ answer: 'x' }] });
      const url = `${E}/questions/${q.id}/`;
      const res = method === 'PATCH' ? await patch(url, body) : await put(url, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(OPTIONS_REFUSED);
      expect((await get(url)).body).toEqual(q);
    });

    it('checks identifier uniqueness and items on update', async () => {
      await createQuestion({ identifier: 'OCCUPIED' });
      const q = await createQuestion({ identifier: 'MINE' });
      const url = `${E}/questions/${q.id}/`;
      const taken = await patch(url, { identifier: 'OCCUPIED' });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({
        identifier: ['This identifier is already used for a different question.'],
      });
      const foreign = await patch(url, { items: [foreignItem] });
      expect(foreign.status).toBe(400);
      expect(foreign.body).toEqual({ non_field_errors: ['One or more items do not belong to this event.'] });
      const same = await patch(url, { identifier: 'MINE', position: 2 });
      expect(same.status).toBe(200);
      expect(same.body).toEqual({ ...q, position: 2 });
      const renamed = await patch(url, { identifier: 'RENAMED' });
      expect(renamed.body.identifier).toBe('RENAMED');
    });

    it('lets ask_during_checkin be set on any type', async () => {
      const q = await createQuestion({ type: 'F' });
      const res = await patch(`${E}/questions/${q.id}/`, { ask_during_checkin: true });
      expect(res.status).toBe(200);
      expect([res.body.type, res.body.ask_during_checkin]).toEqual(['F', true]);
      const ok = await patch(`${E}/questions/${q.id}/`, { ask_during_checkin: true, type: 'S' });
      expect(ok.status).toBe(200);
      expect([ok.body.type, ok.body.ask_during_checkin]).toEqual(['S', true]);
    });
  });

  describe('delete', () => {
    it('deletes the question with its options, unlinks dependents, and logs it', async () => {
      const q = await createQuestion({ type: 'C', options: [{ answer: 'a', identifier: 'GONE-A' }] });
      const dependent = await createQuestion({ dependency_question: q.id, dependency_values: ['GONE-A'] });
      const res = await del(`${E}/questions/${q.id}/`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const gone = await get(`${E}/questions/${q.id}/`);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual(NOT_FOUND);
      const options: unknown[] = await t.db.query('SELECT 1 FROM question_option WHERE question_id = $1', [
        q.id,
      ]);
      expect(options).toHaveLength(0);
      expect((await get(`${E}/questions/${dependent.id}/`)).body).toEqual({
        ...dependent,
        dependency_question: null,
        dependency_values: [],
        dependency_value: null,
      });
      expect(await logActions(q.id)).toEqual([
        'pretix.event.question.added',
        'pretix.event.question.deleted',
      ]);
      expect(await logActions(dependent.id)).toEqual([
        'pretix.event.question.added',
        'pretix.event.question.changed',
      ]);
      expect((await del(`${E}/questions/${q.id}/`)).status).toBe(404);
    });

    it('drops a deleted item from the questions it was assigned to', async () => {
      const item = await createItem(E, 'Temporary');
      const q = await createQuestion({ items: [itemA, item] });
      await t.db.query('DELETE FROM item WHERE id = $1', [item]);
      expect((await get(`${E}/questions/${q.id}/`)).body).toEqual({ ...q, items: [itemA] });
    });
  });

  describe('scoping', () => {
    let foreign: QuestionBody;

    beforeAll(async () => {
      foreign = await createQuestion({ question: 'Foreign' }, OTHER);
    });

    it.each(['get', 'patch', 'put', 'delete'] as const)(
      '%s of a question of another event answers 404',
      async (method) => {
        const url = `${E}/questions/${foreign.id}/`;
        const res =
          method === 'get'
            ? await get(url)
            : method === 'delete'
              ? await del(url)
              : method === 'patch'
                ? await patch(url, { question: 'hijack' })
                : await put(url, { question: 'hijack', type: 'S', items: [] });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
        expect((await get(`${OTHER}/questions/${foreign.id}/`)).body).toEqual(foreign);
      },
    );

    it.each(['abc', '1.5', '0', '-1', '99999999999'])('answers 404 for the id %s', async (id) => {
      const res = await get(`${E}/questions/${id}/`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect((await patch(`${E}/questions/${id}/`, { position: 1 })).status).toBe(404);
      expect((await put(`${E}/questions/${id}/`, { question: 'x', type: 'S', items: [] })).status).toBe(404);
      expect((await del(`${E}/questions/${id}/`)).status).toBe(404);
    });
  });

  describe('permissions', () => {
    let q: QuestionBody;

    beforeAll(async () => {
      q = await createQuestion({ question: 'Perm' });
    });

    it('answers 401 without credentials', async () => {
      const res = await t.http().get(`${E}/questions/`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect((await t.http().get(`${E}/questions/${q.id}/`)).status).toBe(401);
      expect(
        (await t.http().post(`${E}/questions/`).send({ question: 'x', type: 'S', items: [] })).status,
      ).toBe(401);
      expect((await t.http().patch(`${E}/questions/${q.id}/`).send({ position: 1 })).status).toBe(401);
      expect((await t.http().delete(`${E}/questions/${q.id}/`)).status).toBe(401);
    });

    it('lets a team with event access but without event.items:write read', async () => {
      const list = await get(`${E}/questions/?identifier=${q.identifier}`, reader);
      expect(list.status).toBe(200);
      expect(list.body.results).toEqual([q]);
      const detail = await get(`${E}/questions/${q.id}/`, reader);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(q);
    });

    it('answers 403 to every write without event.items:write, changing nothing', async () => {
      const before = await count('question');
      const url = `${E}/questions/${q.id}/`;
      for (const res of [
        await post(`${E}/questions/`, { question: 'x', type: 'S', items: [] }, reader),
        await patch(url, { question: 'x' }, reader),
        await put(url, { question: 'x', type: 'S', items: [] }, reader),
        await del(url, reader),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(url)).body).toEqual(q);
      expect(await count('question')).toBe(before);
    });

    it('answers 403 for an event outside the team limit, and for unknown organizer or event', async () => {
      for (const res of [
        await get(`${E}/questions/`, outsider),
        await get(`${E}/questions/${q.id}/`, outsider),
        await post(`${E}/questions/`, { question: 'x', type: 'S', items: [] }, outsider),
        await patch(`${E}/questions/${q.id}/`, { question: 'x' }, outsider),
        await del(`${E}/questions/${q.id}/`, outsider),
        await get('/api/v1/organizers/nope/events/sample/questions/'),
        await get('/api/v1/organizers/org/events/nope/questions/'),
        await post('/api/v1/organizers/org/events/nope/questions/', { question: 'x', type: 'S', items: [] }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      }
      expect((await get(`${E}/questions/${q.id}/`)).body).toEqual(q);
    });
  });
});

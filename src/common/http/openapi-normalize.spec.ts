import type { OpenAPIObject } from '@nestjs/swagger';
import { NULL_SCHEMA, normalizeSchemas, optionalBodies } from './openapi-normalize';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A document with the given component schemas and one POST whose body and answer are given. */
function doc(schemas: Record<string, unknown>, body?: unknown, answer?: unknown): OpenAPIObject {
  return {
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: {
      '/x/': {
        post: {
          ...(body
            ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } }
            : {}),
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: answer ?? {} } } },
          },
        },
      },
    },
    components: { schemas },
  } as OpenAPIObject;
}

const BASE = {
  Money: { type: 'string', pattern: '^\\d+\\.\\d{2}$' },
  MoneyInput: { oneOf: [{ type: 'string' }, { type: 'number' }] },
  Thing: { type: 'object', properties: { a: { type: 'string' } } },
};

describe('normalizeSchemas', () => {
  const props = (d: OpenAPIObject) =>
    (d.components?.schemas?.T as { properties: Record<string, unknown> }).properties;

  it('unwraps a lone allOf and keeps one that has siblings', () => {
    const d = normalizeSchemas(
      doc({
        ...BASE,
        T: {
          type: 'object',
          properties: { a: { allOf: [ref('Money')] }, b: { allOf: [ref('Money')], description: 'B' } },
        },
      }),
    );
    expect(props(d)).toEqual({ a: ref('Money'), b: { allOf: [ref('Money')], description: 'B' } });
  });

  it('gives a nullable reference the type of what it names', () => {
    const d = normalizeSchemas(
      doc({ ...BASE, T: { type: 'object', properties: { a: { allOf: [ref('Money')], nullable: true } } } }),
    );
    expect(props(d).a).toEqual({ type: 'string', allOf: [ref('Money')], nullable: true });
  });

  it('lists the alternatives of a nullable reference to a oneOf, the first inline one nullable', () => {
    const d = normalizeSchemas(
      doc({
        ...BASE,
        T: {
          type: 'object',
          properties: { a: { allOf: [ref('MoneyInput')], nullable: true, example: '5.00' } },
        },
      }),
    );
    expect(props(d).a).toEqual({
      example: '5.00',
      oneOf: [{ type: 'string', nullable: true }, { type: 'number' }],
    });
  });

  it('makes one inline alternative of a nullable oneOf nullable, or adds Null when all are references', () => {
    const d = normalizeSchemas(
      doc(
        { ...BASE },
        { nullable: true, oneOf: [ref('Thing'), { type: 'integer' }] },
        { nullable: true, oneOf: [ref('Thing'), ref('Money')] },
      ),
    );
    const post = d.paths['/x/'].post;
    const body = post?.requestBody && 'content' in post.requestBody ? post.requestBody.content : undefined;
    expect(body?.['application/json'].schema).toEqual({
      oneOf: [ref('Thing'), { type: 'integer', nullable: true }],
    });
    const answer = post?.responses['200'];
    expect(answer && 'content' in answer ? answer.content?.['application/json'].schema : undefined).toEqual({
      oneOf: [ref('Thing'), ref('Money'), ref('Null')],
    });
    expect(d.components?.schemas?.Null).toEqual(NULL_SCHEMA);
  });

  it('adds no Null component when nothing refers to it', () => {
    expect(normalizeSchemas(doc({ ...BASE })).components?.schemas?.Null).toBeUndefined();
  });
});

describe('optionalBodies', () => {
  const required = (d: OpenAPIObject) => {
    const body = d.paths['/x/'].post?.requestBody;
    return body && 'required' in body ? body.required : undefined;
  };

  it('marks a body optional when its object has no required field', () => {
    expect(required(optionalBodies(doc({ ...BASE }, ref('Thing'))))).toBe(false);
  });

  it('keeps a body required when a field is, or when it is not an object', () => {
    const withRequired = { ...BASE, Thing: { ...BASE.Thing, required: ['a'] } };
    expect(required(optionalBodies(doc(withRequired, ref('Thing'))))).toBe(true);
    expect(required(optionalBodies(doc({ ...BASE }, { type: 'array', items: ref('Thing') })))).toBe(true);
  });
});

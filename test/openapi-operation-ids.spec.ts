import { Controller, Get, INestApplication, Post, RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { Test } from '@nestjs/testing';
import { DECORATORS, OpenAPIObject } from '@nestjs/swagger';
import { AppModule } from '../src/app.module';
import { buildOpenApiDocument } from '../src/common/http/openapi';
import { summaryOf } from '../src/common/http/openapi-operations';
import { API_PREFIX } from '../src/common/http/route-registry';
import { collectControllers } from './print-route-table';

/** One route of a controller class, as its decorators declare it. */
interface Handler {
  controller: string;
  method: string;
  /** `GET /api/v1/organizers/{organizer}/events/{event}/quotas/{id}`: the document's key (no trailing slash). */
  operation: string;
}

/** Every documented route of the given controllers, read from the Nest and swagger decorator metadata. */
function handlersOf(controllers: Type<unknown>[]): Handler[] {
  const handlers: Handler[] = [];
  for (const cls of controllers) {
    if (Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, cls)?.[0] === true) continue;
    const bases = [Reflect.getMetadata(PATH_METADATA, cls) as string | string[]].flat();
    const prototype = cls.prototype as Record<string, unknown>;
    for (const method of Object.getOwnPropertyNames(prototype)) {
      const fn = prototype[method];
      if (method === 'constructor' || typeof fn !== 'function') continue;
      const paths = Reflect.getMetadata(PATH_METADATA, fn) as string | string[] | undefined;
      const verb = Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod | undefined;
      if (paths === undefined || verb === undefined) continue;
      if (Reflect.getMetadata(DECORATORS.API_EXCLUDE_ENDPOINT, fn)?.disable === true) continue;
      for (const base of bases) {
        for (const sub of [paths].flat()) {
          const path = [API_PREFIX, base, sub]
            .flatMap((p) => p.split('/'))
            .filter((p) => p !== '')
            .map((p) => (p.startsWith(':') ? `{${p.slice(1)}}` : p))
            .join('/');
          handlers.push({ controller: cls.name, method, operation: `${RequestMethod[verb]} /${path}` });
        }
      }
    }
  }
  return handlers;
}

/** The document the application builds for these controllers (dependencies mocked: no database needed). */
async function documentOf(controllers: Type<unknown>[]): Promise<OpenAPIObject> {
  const moduleRef = await Test.createTestingModule({ controllers })
    .useMocker(() => ({}))
    .compile();
  const app: INestApplication = moduleRef.createNestApplication({ logger: false });
  app.setGlobalPrefix(API_PREFIX);
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

/** `GET /api/v1/...` → operationId, for every operation of a document. */
function operationIds(document: OpenAPIObject): Map<string, string | undefined> {
  const ids = new Map<string, string | undefined>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [verb, operation] of Object.entries(item as Record<string, { operationId?: string }>)) {
      ids.set(`${verb.toUpperCase()} ${path}`, operation.operationId);
    }
  }
  return ids;
}

/**
 * operationIds are the controller method names (the SDK and integrators call operations by them): the document
 * takes each id from the method serving the operation, ids are unique, and a name two controllers share, or a
 * method serving several paths, fails the document build.
 */
describe('OpenAPI operationIds', () => {
  const controllers = collectControllers(AppModule.forRoot());

  it("names every operation of the API after its handler's method, uniquely", async () => {
    const handlers = handlersOf(controllers);
    expect(handlers.length).toBeGreaterThan(200);
    const ids = operationIds(await documentOf(controllers));
    const mismatches = handlers
      .filter((h) => ids.get(h.operation) !== h.method)
      .map((h) => `${h.operation}: ${String(ids.get(h.operation))} (handler ${h.controller}.${h.method})`);
    expect(mismatches).toEqual([]);
    expect([...ids.keys()].sort()).toEqual(handlers.map((h) => h.operation).sort());
    const names = handlers.map((h) => h.method);
    const repeated = names.filter((name, i) => names.indexOf(name) !== i);
    expect(repeated).toEqual([]);
  });

  it('fails the build when two controllers have a method of the same name', async () => {
    @Controller('first')
    class FirstController {
      @Get()
      listThings(): string[] {
        return [];
      }
    }
    @Controller('second')
    class SecondController {
      @Get()
      listThings(): string[] {
        return [];
      }
    }
    await expect(documentOf([FirstController, SecondController])).rejects.toThrow(
      /FirstController\.listThings and SecondController\.listThings .*"listThings"/,
    );
  });

  it('fails the build when one method serves several paths', async () => {
    @Controller('things')
    class ThingsController {
      @Post(['a', 'b'])
      createThing(): string {
        return '';
      }
    }
    await expect(documentOf([ThingsController])).rejects.toThrow(/ThingsController\.createThing\[0\]/);
  });

  it('reads a summary from the method name', () => {
    expect(summaryOf('listOrganizerOrders')).toBe('List organizer orders');
    expect(summaryOf('retrieveQuota')).toBe('Retrieve a quota');
    expect(summaryOf('createEventMetaProperty')).toBe('Create an event meta property');
    expect(summaryOf('updateQuota')).toBe('Replace a quota');
    expect(summaryOf('partialUpdateSeat2')).toBe('Update fields of a seat');
    expect(summaryOf('destroyQuotaByAlias')).toBe('Delete a quota (singular path)');
    expect(summaryOf('bulkUnblockSeatsWithPatch')).toBe('Bulk unblock seats');
    expect(summaryOf('markOrderPaid')).toBe('Mark order paid');
  });
});

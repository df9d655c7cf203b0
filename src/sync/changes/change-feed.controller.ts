import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequireOrganizerAccess } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../../auth/request-context';
import { ValidationFailed } from '../../common/errors';
import { filter, ListFilters } from '../../common/http/list-filters';
import { NoStore } from '../../common/http/no-store';
import { Filters, QueryFilters } from '../../common/listing/query-filters';
import { Organizer } from '../../organizers/organizer.entity';
import { CHANGE_RESOURCE_NAMES, ChangeResourceName, isChangeResourceName } from '../change-resources';
import { ChangePageJson } from './change-feed.presenter';
import { ChangeFeedService } from './change-feed.service';

/** Default and largest `page_size` of the feed. */
export const CHANGE_PAGE_SIZE = { default: 100, max: 1000 } as const;

/**
 * `O/changes/` (issue 27 §1; README "Sync and concurrency"): the change feed. Organizer access; what it returns
 * is filtered per resource by the resource's read permission (see {@link ChangeFeedService}).
 */
@ApiTags('changes')
@NoStore()
@Controller('organizers/:organizer/changes')
export class ChangeFeedController {
  constructor(private readonly feed: ChangeFeedService) {}

  /** One page of changes after `cursor`, oldest first. */
  @Get()
  @RequireOrganizerAccess()
  @ApiOperation({
    summary: 'Change feed: every change to the organizer’s data the credential may read, in commit order',
  })
  @ApiOkResponse({ type: ChangePageJson })
  @ApiResponse({
    status: 410,
    description: 'The cursor is older than the feed keeps (`CHANGE_FEED_RETENTION_DAYS`): start over.',
    schema: { $ref: '#/components/schemas/ErrorDetail' },
  })
  @ListFilters({
    filters: {
      cursor: filter.text('The `next` of the previous answer; omitted: from the oldest change kept.'),
      resource: {
        schema: { type: 'array', items: { type: 'string', enum: [...CHANGE_RESOURCE_NAMES] } },
        style: 'form',
        explode: true,
        description: 'Only changes of these resources (repeatable: `?resource=order&resource=checkin`).',
      },
      event: filter.text('Only changes of the event with this slug.'),
      page_size: {
        schema: {
          type: 'integer',
          minimum: 1,
          maximum: CHANGE_PAGE_SIZE.max,
          default: CHANGE_PAGE_SIZE.default,
        },
        description: 'Changes per page (1 to 1,000; default 100).',
      },
    },
  })
  listChanges(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Filters() filters: QueryFilters,
  ): Promise<ChangePageJson> {
    const resources = filters.all('resource');
    const unknown = resources.filter((r) => !isChangeResourceName(r));
    if (unknown.length > 0) {
      throw ValidationFailed.field('resource', `Unknown resource "${unknown[0]}".`);
    }
    const pageSize = filters.int('page_size') ?? CHANGE_PAGE_SIZE.default;
    if (pageSize < 1 || pageSize > CHANGE_PAGE_SIZE.max) {
      throw ValidationFailed.field(
        'page_size',
        `Ensure this value is between 1 and ${CHANGE_PAGE_SIZE.max}.`,
      );
    }
    return this.feed.page(organizer, principal, {
      cursor: filters.str('cursor'),
      resources: resources.length > 0 ? [...new Set(resources as ChangeResourceName[])] : null,
      event: filters.str('event'),
      pageSize,
    });
  }
}

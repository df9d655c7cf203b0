import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime, ApiInt, ApiIntList } from '../common/http/api-schemas';
import { isoUtc } from '../common/values/datetime';
import type { CheckinList } from './checkin-list.entity';

/** Wire form of a check-in list (spec "Check-in list"; compat §3.20). Datetimes are ISO 8601 UTC. */
export class CheckinListJson {
  @ApiInt()
  id!: number;
  name!: string;
  all_products!: boolean;
  /** Item ids, ascending. */
  @ApiIntList()
  limit_products!: number[];
  @ApiInt({ nullable: true })
  subevent!: number | null;
  /** Tickets valid on the list (read-only). */
  @ApiInt()
  position_count!: number;
  /** Tickets with a successful entry scan on the list (read-only). */
  @ApiInt()
  checkin_count!: number;
  include_pending!: boolean;
  allow_multiple_entries!: boolean;
  allow_entry_after_exit!: boolean;
  addon_match!: boolean;
  @ApiDateTime({ nullable: true })
  exit_all_at!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'JsonLogic rules as stored (not a stable API).',
  })
  rules!: Record<string, unknown>;
  ignore_in_statistics!: boolean;
  consider_tickets_used!: boolean;
}

/** Entity (with its product ids) and its two counts to wire object. */
export function toCheckinListJson(
  list: CheckinList,
  itemIds: readonly number[],
  counts: { positions: number; checkins: number },
): CheckinListJson {
  return {
    id: list.id,
    name: list.name,
    all_products: list.allProducts,
    limit_products: [...itemIds].sort((a, b) => a - b),
    subevent: list.subeventId,
    position_count: counts.positions,
    checkin_count: counts.checkins,
    include_pending: list.includePending,
    allow_multiple_entries: list.allowMultipleEntries,
    allow_entry_after_exit: list.allowEntryAfterExit,
    addon_match: list.addonMatch,
    exit_all_at: list.exitAllAt ? isoUtc(list.exitAllAt) : null,
    rules: list.rules ?? {},
    ignore_in_statistics: list.ignoreInStatistics,
    consider_tickets_used: list.considerTicketsUsed,
  };
}

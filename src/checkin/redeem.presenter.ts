import { ApiEnum, ApiInt } from '../common/http/api-schemas';
import { QuestionJson } from '../catalogue/questions/question.presenter';
import { CheckinPositionJson } from '../orders/checkin-seam/checkin-positions';
import type { Event } from '../organizers/event.entity';
import type { CheckinList } from './checkin-list.entity';
import { REDEEM_REASONS } from './redeem.rules';

/** The list as a redeem answer names it (compat §3.21). */
export class RedeemListJson {
  @ApiInt()
  id!: number;
  name!: string;
  /** Event slug. */
  event!: string;
  @ApiInt({ nullable: true })
  subevent!: number | null;
  include_pending!: boolean;
}

/** 201 answer of a redeem (compat §3.21); refusals answer 400/404 with `status` `error` or `incomplete`. */
export class RedeemOkJson {
  @ApiEnum(['ok'])
  status!: 'ok';
  require_attention!: boolean;
  position!: CheckinPositionJson;
  list!: RedeemListJson;
}

/** 400 (or 404 with reason `invalid`) answer of a refused redeem (compat §3.21). */
export class RedeemErrorJson {
  @ApiEnum(['error'])
  status!: 'error';
  @ApiEnum(REDEEM_REASONS)
  reason!: string;
  /** Human explanation (what a scanner shows). */
  reason_explanation!: string | null;
  require_attention!: boolean;
  /** The ticket scanned (absent for an unknown secret). */
  position?: CheckinPositionJson;
  list!: RedeemListJson;
}

/** 400 answer when check-in questions are unanswered (compat §3.21 `incomplete`); nothing is stored. */
export class RedeemIncompleteJson {
  @ApiEnum(['incomplete'])
  status!: 'incomplete';
  require_attention!: boolean;
  position!: CheckinPositionJson;
  /** The product's check-in questions still without a (valid) answer. */
  questions!: QuestionJson[];
  list!: RedeemListJson;
}

/** The list as redeem answers name it. */
export function toListJson(list: CheckinList, event: Pick<Event, 'slug'>): RedeemListJson {
  return {
    id: list.id,
    name: list.name,
    event: event.slug,
    subevent: list.subeventId,
    include_pending: list.includePending,
  };
}

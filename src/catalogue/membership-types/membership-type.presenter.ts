import type { I18nString } from '../../common/values/i18n';
import type { MembershipType } from './membership-type.entity';
import { ApiI18n, ApiInt } from '../../common/http/api-schemas';

/** Wire form of a membership type (spec "Membership type"; compat §3.6). */
export class MembershipTypeJson {
  @ApiInt()
  id!: number;
  @ApiI18n()
  name!: I18nString;
  transferable!: boolean;
  allow_parallel_usage!: boolean;
  /** Maximum number of uses; null means unlimited. */
  @ApiInt({ nullable: true })
  max_usages!: number | null;
}

/** Entity to wire object, field by field. */
export function toMembershipTypeJson(type: MembershipType): MembershipTypeJson {
  return {
    id: type.id,
    name: type.name,
    transferable: type.transferable,
    allow_parallel_usage: type.allowParallelUsage,
    max_usages: type.maxUsages,
  };
}

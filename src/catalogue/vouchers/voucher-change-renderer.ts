import { Injectable } from '@nestjs/common';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../../audit/change-renderer';
import type { ObjectRef } from '../../common/listing/object-refs';
import { VouchersService } from './vouchers.service';

/**
 * The change feed's voucher renderer (a provider of its own: {@link VouchersService} is also registered for the
 * contexts that issue vouchers, and a contribution must have exactly one provider).
 */
@Injectable()
@RendersChanges('voucher')
export class VoucherChangeRenderer implements ChangeRenderer {
  constructor(private readonly vouchers: VouchersService) {}

  /** The vouchers as their detail GET answers them ({@link VouchersService.details}). */
  renderChanges(_scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    return this.vouchers.details(refs);
  }
}

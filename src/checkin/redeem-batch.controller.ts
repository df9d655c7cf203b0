import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireOrganizerAccess } from '../auth/access.decorators';
import { Principal } from '../auth/principal';
import { CurrentOrganizer, CurrentPrincipal } from '../auth/request-context';
import { NoStore } from '../common/http/no-store';
import type { Organizer } from '../organizers/organizer.entity';
import { RedeemBatchDto } from './redeem-batch.dto';
import {
  RedeemBatchErrorJson,
  RedeemBatchFailureJson,
  RedeemBatchIncompleteJson,
  RedeemBatchJson,
  RedeemBatchOkJson,
} from './redeem-batch.presenter';
import { RedeemBatchService } from './redeem-batch.service';

/** `O/checkinrpc/redeem_batch/` (README "Batch redeem"): many scans of `checkinrpc/redeem/` in one request. */
@ApiTags('checkinrpc')
@NoStore()
@Controller('organizers/:organizer/checkinrpc')
export class RedeemBatchController {
  constructor(private readonly batch: RedeemBatchService) {}

  /**
   * Redeems 1..1000 scans, each as `checkinrpc/redeem/` would (same permission: check-in or order write on the
   * list's event); 200 with one result per scan in order, each `{"status_code": <the single redeem's status>,
   * ...<its body>}`. Only a malformed `scans` answers 400 for the whole batch.
   */
  @Post('redeem_batch')
  @HttpCode(200)
  @RequireOrganizerAccess()
  @ApiExtraModels(RedeemBatchOkJson, RedeemBatchErrorJson, RedeemBatchIncompleteJson, RedeemBatchFailureJson)
  @ApiOkResponse({
    type: RedeemBatchJson,
    description:
      'One result per scan, in order: `status_code` is what `checkinrpc/redeem/` answers for that scan (201 ok; ' +
      '400 refused, incomplete or invalid scan; 403 lists out of reach; 404 unknown ticket), the other fields its body.',
  })
  @ApiOperation({ summary: 'Redeem many scans at once (offline upload)' })
  redeemBatchCheckinRpc(
    @CurrentOrganizer() organizer: Organizer,
    @CurrentPrincipal() principal: Principal,
    @Body() body: RedeemBatchDto,
  ): Promise<RedeemBatchJson> {
    return this.batch.redeemBatch(organizer, principal, body);
  }
}

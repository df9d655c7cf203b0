import { ApiProperty } from '@nestjs/swagger';
import { ApiInt } from '../common/http/api-schemas';
import type { Shredder } from './shredders';

/** One shredder (compat §3.8). */
export class ShredderJson {
  identifier!: string;
  verbose_name!: string;
}

/** The pseudo-paginated list of `GET E/shredders/`. */
export class ShredderListJson {
  @ApiInt()
  count!: number;
  @ApiProperty({ type: 'string', nullable: true, example: null })
  next!: null;
  @ApiProperty({ type: 'string', nullable: true, example: null })
  previous!: null;
  @ApiProperty({ type: [ShredderJson] })
  results!: ShredderJson[];
}

/** 202 answer of `export/`: absolute URLs of the download and of the shred. */
export class ShredderExportJson {
  download!: string;
  shred!: string;
}

/** 202 answer of `shred/`: the absolute status URL. */
export class ShredStartedJson {
  status!: string;
}

/** 200 answer of `status/`. */
export class ShredStatusJson {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
  message!: string;
}

export function toShredderJson(s: Shredder): ShredderJson {
  return { identifier: s.identifier, verbose_name: s.verbose_name };
}

/** 409 body of the polls: the task is not done yet (retry after `Retry-After` seconds). */
export class TaskPendingJson {
  @ApiProperty({ enum: ['waiting', 'running'] })
  status!: 'waiting' | 'running';
}

/** 410/417 body of the polls: the task failed (`failed`) or is no longer known (`gone`). */
export class TaskFailedJson {
  @ApiProperty({ enum: ['failed', 'gone'] })
  status!: 'failed' | 'gone';
  message!: string;
}

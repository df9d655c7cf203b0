import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { NoTrailingSlash, RequireAuthentication } from '../../auth/access.decorators';
import { Principal } from '../../auth/principal';
import { CurrentPrincipal } from '../../auth/request-context';
import { UploadedFiles } from './uploaded-files.service';
import { UPLOAD_TYPES } from './upload-rules';

/** `POST /api/v1/upload`'s answer. */
export class UploadJson {
  /** `file:<uuid>`: name it as the answer to a file question (order creation, check-in redeem) within a day. */
  id!: string;
}

/**
 * `POST /api/v1/upload` (pretix `UploadView`; compat §1.10 "File"): the raw body is the file, with its
 * `Content-Type` and `Content-Disposition: attachment; filename="…"`; any credential may upload.
 */
@ApiTags('uploads')
@Controller('upload')
export class UploadsController {
  constructor(private readonly uploads: UploadedFiles) {}

  @Post()
  @HttpCode(201)
  @NoTrailingSlash()
  @RequireAuthentication()
  @ApiConsumes(...Object.keys(UPLOAD_TYPES))
  @ApiBody({
    description:
      'The file\'s bytes; `Content-Disposition: attachment; filename="photo.png"` names it. Types: PNG, JPEG, GIF ' +
      '(a well-formed image of at most 89,478,485 pixels) and PDF, with a matching file name extension; at most ' +
      '10 MiB (413 above).',
    schema: { type: 'string', format: 'binary' },
  })
  @ApiCreatedResponse({ type: UploadJson, description: 'The upload, usable by this credential for 24 hours.' })
  @ApiOperation({ summary: 'Upload a file for a file answer' })
  uploadFile(@CurrentPrincipal() principal: Principal, @Req() req: Request): Promise<UploadJson> {
    return this.uploads.upload(principal, {
      contentType: req.headers['content-type'],
      contentDisposition: req.headers['content-disposition'],
      body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
    });
  }
}

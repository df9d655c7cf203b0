import { Module } from '@nestjs/common';
import { CategoriesController } from './categories/categories.controller';
import { CategoriesService } from './categories/categories.service';
import { ItemsController } from './items/items.controller';
import { ItemsService } from './items/items.service';

/** The event catalogue: categories and items (this issue); variations, quotas, vouchers and more later. */
@Module({
  controllers: [CategoriesController, ItemsController],
  providers: [CategoriesService, ItemsService],
  exports: [CategoriesService, ItemsService],
})
export class CatalogueModule {}

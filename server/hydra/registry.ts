import type { AppContext } from '../context';
import type { PermissionDefinition } from '#domain/permissions';
import { permissionCatalogue } from './catalogue';
import { ResourceRepository, type Registry } from './repository';
import type { ResourceDeclaration } from './types';

/** The declared resources and their repositories, by collection name, and the permission catalogue they make. */
export class ResourceRegistry implements Registry {
  private readonly repositories = new Map<string, ResourceRepository>();
  readonly permissionCatalogue: PermissionDefinition[];

  constructor(declarations: ResourceDeclaration[], app: AppContext) {
    this.permissionCatalogue = permissionCatalogue(declarations);
    for (const declaration of declarations) this.repositories.set(declaration.name, new ResourceRepository(declaration, this, app));
  }

  get(name: string): ResourceRepository {
    const repository = this.repositories.get(name);
    if (!repository) throw new Error(`Unknown resource ${name}`);
    return repository;
  }

  all(): ResourceRepository[] {
    return [...this.repositories.values()];
  }
}

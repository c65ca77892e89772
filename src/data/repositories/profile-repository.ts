/**
 * The signed-in user's profile (spec 7 updateProfile): only changed fields are sent; the name
 * is required. Privileged columns (plan, balance, uploads) are never written by the client.
 */
import { PROFILE_FIELD_COLUMNS, type EditableProfileField, type Profile } from '../db';
import { requireUser, write, type RepositoryDeps } from './context';

export type ProfileChanges = Partial<Pick<Profile, EditableProfileField>>;

export function createProfileRepository(deps: RepositoryDeps) {
  const { db } = deps;
  return {
    /** Resolves to the fields that changed (none: nothing is queued). */
    async update(changes: ProfileChanges): Promise<EditableProfileField[]> {
      const userId = deps.currentUserId();
      if (!userId) throw new Error('Not authenticated');
      requireUser(deps);
      if (changes.name !== undefined && !changes.name.trim()) {
        throw new Error('Display name is required');
      }
      return write(deps, ['profiles'], async (queue) => {
        const current = await db.profiles.get(userId);
        if (!current) throw new Error('Profile not found.');
        const changed: EditableProfileField[] = [];
        const patch: Partial<Profile> = {};
        const payload: Record<string, unknown> = {};
        for (const field of Object.keys(changes) as EditableProfileField[]) {
          if (!(field in PROFILE_FIELD_COLUMNS)) continue;
          let value = changes[field];
          if (field === 'name' && typeof value === 'string') value = value.trim();
          if (JSON.stringify(value ?? null) === JSON.stringify(current[field] ?? null)) continue;
          changed.push(field);
          Object.assign(patch, { [field]: value ?? null });
          payload[PROFILE_FIELD_COLUMNS[field]] = value ?? null;
        }
        if (!changed.length) return changed;
        await db.profiles.update(userId, patch);
        await queue({ userId, op: 'profile.update', entity: 'profile', key: userId, payload });
        return changed;
      });
    },
  };
}

/** Types of the backend SDK that the rest of the app may name (the SDK itself stays in remote/). */
export type { AuthChangeEvent, Session, User } from '@supabase/auth-js';

// Supabase Edge entry: `supabase functions deploy copyright-notice --no-verify-jwt`.
import { serveOnDeno } from '../_shared/deno.ts';
import { handler } from './handler.ts';

serveOnDeno(handler);

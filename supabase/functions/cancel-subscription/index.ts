// Supabase Edge entry: `supabase functions deploy cancel-subscription`.
import { serveOnDeno } from '../_shared/deno.ts';
import { handler } from './handler.ts';

serveOnDeno(handler);

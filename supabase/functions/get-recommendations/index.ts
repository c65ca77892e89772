// Supabase Edge entry: `supabase functions deploy get-recommendations`.
import { serveOnDeno } from '../_shared/deno.ts';
import { handler } from './handler.ts';

serveOnDeno(handler);

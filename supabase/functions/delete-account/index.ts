// Supabase Edge entry: `supabase functions deploy delete-account`.
import { serveOnDeno } from '../_shared/deno.ts';
import { handler } from './handler.ts';

serveOnDeno(handler);

-- The tracks bucket holds the artists' originals: nobody reads them through a public URL any
-- more. Listeners play signed URLs of what their plan allows (the renditions bucket, or the
-- original when it is lossless and the plan is premium), decided by the select policies of
-- 20261125100000 (may_fetch_quality, may_fetch_original). Rows made before the pipeline, whose
-- audio_url is a public URL and which have no renditions, stay playable by every signed-in
-- listener through a signed URL (may_fetch_original's empty-qualities branch).
update storage.buckets set public = false where id = 'tracks';

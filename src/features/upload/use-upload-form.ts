/**
 * The upload form's state: the picked audio and the tags read from it, the details (prefilled
 * from the tags, the file name and the user's name, never over what the artist typed), the cover
 * (picked, or embedded in the file) and the messages next to each field.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PickedAudio } from './components/audio-drop-zone';
import { readAudioTags } from './read-tags';
import {
  AUDIO_UNREADABLE,
  audioFileError,
  checkDetails,
  coverFileError,
  NOT_AUDIO,
  titleFromFileName,
  type DetailErrors,
  type TrackDetails,
} from './upload-rules';

const EMPTY: TrackDetails = { title: '', artist: '', album: '', genre: '' };

export function useUploadForm(userName: string | null) {
  const [details, setDetails] = useState<TrackDetails>(EMPTY);
  const edited = useRef(new Set<keyof TrackDetails>());
  const [errors, setErrors] = useState<DetailErrors>({});
  const [audio, setAudio] = useState<PickedAudio | null>(null);
  const [audioError, setAudioError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [cover, setCover] = useState<File | null>(null);
  const [coverFromTags, setCoverFromTags] = useState(false);
  const [coverError, setCoverError] = useState<string | null>(null);
  const pickToken = useRef(0);
  /** The cover was chosen by the artist (a file's embedded cover never replaces it). */
  const userCover = useRef(false);

  /** Prefills a field the artist has not typed in. */
  const prefill = useCallback((key: keyof TrackDetails, value: string | null | undefined) => {
    if (value === null || value === undefined || edited.current.has(key)) return;
    setDetails((d) => ({ ...d, [key]: value }));
  }, []);

  useEffect(() => {
    if (userName) prefill('artist', userName);
  }, [userName, prefill]);

  const change = useCallback((key: keyof TrackDetails, value: string) => {
    edited.current.add(key);
    setDetails((d) => ({ ...d, [key]: value }));
    // A required field emptied says so at once (Submit is disabled, so it cannot tell).
    const blank = checkDetails({ ...EMPTY, title: 'x', artist: 'x', [key]: value });
    setErrors((e) => ({ ...e, [key]: blank[key as keyof DetailErrors] }));
  }, []);

  const pickAudio = useCallback(
    async (file: File) => {
      const token = ++pickToken.current;
      const error = audioFileError(file);
      setAudioError(error);
      if (error) {
        setAudio(null);
        return;
      }
      setAudio({ file, duration: null, format: null });
      prefill('title', titleFromFileName(file.name));
      setErrors((e) => ({ ...e, title: undefined }));
      setReading(true);
      try {
        const tags = await readAudioTags(file);
        if (token !== pickToken.current) return;
        setAudio({ file, duration: tags.duration, format: tags.container });
        prefill('title', tags.title);
        prefill('artist', tags.artist);
        prefill('album', tags.album);
        prefill('genre', tags.genre);
        // The file's own cover, unless the artist picked one (a previous file's goes).
        if (!userCover.current) {
          setCover(tags.cover);
          setCoverFromTags(Boolean(tags.cover));
        }
      } catch (e) {
        if (token !== pickToken.current) return;
        console.warn('upload: unreadable audio file', e);
        setAudio(null);
        setAudioError(AUDIO_UNREADABLE);
      } finally {
        if (token === pickToken.current) setReading(false);
      }
    },
    [prefill],
  );
  const pickCover = useCallback((file: File) => {
    const error = coverFileError(file);
    setCoverError(error);
    if (error) return;
    userCover.current = true;
    setCoverFromTags(false);
    setCover(file);
  }, []);

  const removeCover = useCallback(() => {
    userCover.current = false;
    setCoverFromTags(false);
    setCover(null);
    setCoverError(null);
  }, []);

  /** Shows every message; true when the form may be sent. */
  const validate = useCallback((): boolean => {
    const found = checkDetails(details);
    setErrors(found);
    if (!audio) setAudioError((e) => e ?? NOT_AUDIO);
    return Boolean(audio) && !reading && !found.title && !found.artist;
  }, [audio, details, reading]);

  const clear = useCallback(() => {
    pickToken.current++;
    edited.current.clear();
    setDetails({ ...EMPTY, artist: userName ?? '' });
    setErrors({});
    setAudio(null);
    setAudioError(null);
    setReading(false);
    removeCover();
  }, [removeCover, userName]);

  return {
    details,
    errors,
    audio,
    audioError,
    reading,
    cover,
    coverFromTags,
    coverError,
    change,
    pickAudio,
    pickCover,
    removeCover,
    validate,
    clear,
  };
}

-- The level a computer seat plays at ('easy', 'normal'), chosen with /game addbot level:.
-- NULL for human seats and for seats a computer took over from an absent player: those
-- play 'normal'.
ALTER TABLE seats ADD COLUMN bot_level TEXT;

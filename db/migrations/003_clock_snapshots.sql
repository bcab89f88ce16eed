-- The seats' clocks just before each action, so an undo restores them exactly (the next
-- player's top-up is taken back with the move that gave it).
ALTER TABLE actions ADD COLUMN clocks_before TEXT;

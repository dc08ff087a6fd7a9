//! Aether's rules as tables read from the model: elements, the opposing-element cycle, the
//! board with precomputed neighbours, and the tile budget both the checker and engine use.

use hexx::Hex;

use crate::model::{Board, Game};

/// Marks "no tile" / "no elemental" in a cell and "no element" in tables.
pub const NONE: u8 = u8::MAX;

/// Symbol group of the elements, of the player colours, and the piece kinds the rules count.
pub const ELEMENT_GROUP: &str = "element";
pub const PLAYER_GROUP: &str = "player";
pub const ELEMENT_TILE: &str = "element-tile";
pub const ELEMENTAL: &str = "elemental";
pub const AETHER_TILE: &str = "aether-tile";

/// The two setups of Alkuvalmistelut 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setup {
    Normal,
    Long,
}

impl Setup {
    pub const ALL: [Setup; 2] = [Setup::Normal, Setup::Long];

    pub fn name(self) -> &'static str {
        match self {
            Setup::Normal => "normal",
            Setup::Long => "long",
        }
    }

    /// The parameter listing the cell kinds this setup fills.
    pub fn fill_param(self) -> &'static str {
        match self {
            Setup::Normal => "normal_fill",
            Setup::Long => "long_fill",
        }
    }
}

/// What a board hex is at the start of play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellRole {
    /// Holds the aether tile with this index into [`Rules::aether`].
    Aether(u8),
    /// Gets a random element tile at setup.
    Filled,
    /// Starts empty; players place tiles here.
    Playable,
}

/// One aether tile on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AetherTile {
    pub cell: u8,
    pub value: i32,
    pub piece: String,
}

/// The board for one setup, as index tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardTables {
    /// Axial coordinates of each cell, in data order.
    pub coords: Vec<(i32, i32)>,
    pub roles: Vec<CellRole>,
    /// Neighbour cell indices, `NONE`-padded.
    pub neighbours: Vec<[u8; 6]>,
    pub aether: Vec<AetherTile>,
    /// For each cell, the aether tiles within two steps: the ones whose control a tile or
    /// elemental on that cell can change.
    pub near_aether: Vec<Vec<u8>>,
}

impl BoardTables {
    pub fn count(&self, role: CellRole) -> usize {
        self.roles.iter().filter(|&&r| r == role).count()
    }

    pub fn neighbours_of(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.neighbours[cell]
            .iter()
            .take_while(|&&n| n != NONE)
            .map(|&n| n as usize)
    }
}

/// Every rule number of Aether, read from the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    /// Element symbol ids; an element is its index here.
    pub elements: Vec<String>,
    /// Element tiles of each element in the game.
    pub tiles_per_element: Vec<u8>,
    /// The id of each element's tile piece, for `simulate --cards` (the element's own id
    /// when no piece names it).
    pub tile_ids: Vec<&'static str>,
    /// `weakened_by[e]`: the element whose touching tiles weaken an elemental of element `e`.
    pub weakened_by: Vec<u8>,
    /// Player colour symbol ids, in seat order.
    pub colours: Vec<String>,
    /// The id of each colour's elemental piece (the colour's own id when no piece names it),
    /// for the table's drawn board.
    pub elemental_ids: Vec<&'static str>,
    /// The id of the board the game is played on.
    pub board_id: String,
    /// Elementals of each colour in the box.
    pub elementals_in_box: Vec<u32>,
    pub min_players: usize,
    pub max_players: usize,
    /// Elementals per player, for `min_players` upwards.
    pub elementals_per_player: Vec<u8>,
    pub hand_size: u8,
    pub unplayed_points: i32,
    pub swap_sacrifice: u8,
    pub team_players: usize,
    /// Teams as 0-based seats.
    pub teams: Vec<Vec<usize>>,
    pub normal: BoardTables,
    pub long: BoardTables,
}

impl Rules {
    pub fn from_model(game: &Game) -> Result<Rules, String> {
        let elements: Vec<String> = game
            .symbols_in(ELEMENT_GROUP)
            .map(|s| s.id.get_ref().clone())
            .collect();
        if elements.is_empty() || elements.len() >= NONE as usize {
            return Err(format!(
                "{} needs between 1 and 254 symbols of group `{ELEMENT_GROUP}`",
                game.slug
            ));
        }
        let tiles_per_element = elements
            .iter()
            .map(|e| piece_count(game, ELEMENT_TILE, e).and_then(|n| small(n, "element tiles")))
            .collect::<Result<Vec<u8>, String>>()?;
        let tile_ids = elements
            .iter()
            .map(|e| {
                let piece = game
                    .pieces_of_kind(ELEMENT_TILE)
                    .find(|p| p.symbol.as_deref() == Some(e.as_str()));
                crate::engine::lua::intern(piece.map_or(e.as_str(), |p| p.id.get_ref()))
            })
            .collect();
        let weakened_by = weakened_by(game, &elements)?;
        let colours: Vec<String> = game
            .symbols_in(PLAYER_GROUP)
            .map(|s| s.id.get_ref().clone())
            .collect();
        let elemental_ids = colours
            .iter()
            .map(|c| {
                let piece = game
                    .pieces_of_kind(ELEMENTAL)
                    .find(|p| p.symbol.as_deref() == Some(c.as_str()));
                crate::engine::lua::intern(piece.map_or(c.as_str(), |p| p.id.get_ref()))
            })
            .collect();
        let board_id = the_board(game)?.id.get_ref().clone();
        let elementals_in_box = colours
            .iter()
            .map(|c| piece_count(game, ELEMENTAL, c))
            .collect::<Result<Vec<u32>, String>>()?;
        let min_players = usize::from(game.info.players.min);
        let max_players = usize::from(game.info.players.max);
        let elementals_per_player = game
            .param_ints("elementals_per_player")?
            .into_iter()
            .map(|n| small_i64(n, "elementals_per_player"))
            .collect::<Result<Vec<u8>, String>>()?;
        let team_players = usize::try_from(game.param_int("team_players")?)
            .map_err(|_| "parameter `team_players` must not be negative".to_string())?;
        let rules = Rules {
            tiles_per_element,
            tile_ids,
            weakened_by,
            elementals_in_box,
            min_players,
            max_players,
            elementals_per_player,
            hand_size: small_i64(game.param_int("hand_size")?, "hand_size")?,
            unplayed_points: i32::try_from(game.param_int("unplayed_elemental_points")?)
                .map_err(|_| "parameter `unplayed_elemental_points` is out of range")?,
            swap_sacrifice: small_i64(game.param_int("swap_sacrifice")?, "swap_sacrifice")?,
            team_players,
            teams: teams(game)?,
            normal: board_tables(game, Setup::Normal)?,
            long: board_tables(game, Setup::Long)?,
            elements,
            colours,
            elemental_ids,
            board_id,
        };
        rules.validate()?;
        Ok(rules)
    }

    /// What the engine needs beyond parsing: seats have colours and elementals.
    fn validate(&self) -> Result<(), String> {
        if self.min_players < 1 || self.colours.len() < self.max_players {
            return Err(format!(
                "{} player colours for up to {} players",
                self.colours.len(),
                self.max_players
            ));
        }
        if self.elementals_per_player.len() != self.max_players - self.min_players + 1 {
            return Err(format!(
                "`elementals_per_player` lists {} counts for {} to {} players",
                self.elementals_per_player.len(),
                self.min_players,
                self.max_players
            ));
        }
        if self.hand_size == 0 {
            return Err("`hand_size` must be at least 1".into());
        }
        if self.swap_sacrifice == 0 {
            // A free swap could be repeated forever.
            return Err("`swap_sacrifice` must be at least 1".into());
        }
        Ok(())
    }

    pub fn board(&self, setup: Setup) -> &BoardTables {
        match setup {
            Setup::Normal => &self.normal,
            Setup::Long => &self.long,
        }
    }

    /// Elementals each player takes at this player count.
    pub fn elementals_for(&self, players: usize) -> Option<u8> {
        players
            .checked_sub(self.min_players)
            .and_then(|i| self.elementals_per_player.get(i).copied())
    }

    pub fn total_tiles(&self) -> usize {
        self.tiles_per_element.iter().map(|&n| usize::from(n)).sum()
    }
}

/// The tiles a setup and player count use: the setup fill, the starting hands, one tile for
/// every empty hex (each placement is followed by a draw), and one more hand so that a swap
/// (draw new tiles first, return the old ones after) is possible on the last turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub fill: usize,
    pub hands: usize,
    pub empties: usize,
    pub swap: usize,
}

impl Budget {
    pub fn of(fill: usize, playable: usize, players: usize, hand_size: usize) -> Budget {
        Budget {
            fill,
            hands: players * hand_size,
            empties: playable,
            swap: hand_size,
        }
    }

    pub fn needed(&self) -> usize {
        self.fill + self.hands + self.empties + self.swap
    }
}

/// Pieces of a kind whose symbol is `symbol`, counted.
fn piece_count(game: &Game, kind: &str, symbol: &str) -> Result<u32, String> {
    Ok(game
        .pieces_of_kind(kind)
        .filter(|p| p.symbol.as_deref() == Some(symbol))
        .map(|p| p.count.0)
        .sum())
}

fn small(n: u32, what: &str) -> Result<u8, String> {
    u8::try_from(n)
        .ok()
        .filter(|&n| n != NONE)
        .ok_or_else(|| format!("at most 254 {what} of one kind, found {n}"))
}

fn small_i64(n: i64, what: &str) -> Result<u8, String> {
    u8::try_from(n)
        .ok()
        .filter(|&n| n != NONE)
        .ok_or_else(|| format!("parameter `{what}` must be between 0 and 254, found {n}"))
}

/// The `beats` parameter as `[winner, loser]` pairs of strings.
pub fn beats_pairs(game: &Game) -> Result<Vec<(String, String)>, String> {
    let p = game
        .param("beats")
        .ok_or("aether has no parameter `beats` in game.toml")?;
    let wrong = || "parameter `beats` must be a list of [winner, loser] element pairs".to_string();
    let list = p.value.get_ref().as_array().ok_or_else(wrong)?;
    list.iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([w, l]) => match (w.as_str(), l.as_str()) {
                (Some(w), Some(l)) => Ok((w.to_string(), l.to_string())),
                _ => Err(wrong()),
            },
            _ => Err(wrong()),
        })
        .collect()
}

/// For each element, the one element that weakens it (Vastaelementit).
fn weakened_by(game: &Game, elements: &[String]) -> Result<Vec<u8>, String> {
    let index = |id: &str| {
        elements
            .iter()
            .position(|e| e == id)
            .map(|i| i as u8)
            .ok_or_else(|| format!("`beats` names `{id}`, which is not an element"))
    };
    let mut out = vec![NONE; elements.len()];
    for (winner, loser) in beats_pairs(game)? {
        let (w, l) = (index(&winner)?, index(&loser)?);
        if out[l as usize] != NONE {
            return Err(format!("`beats` names two elements that beat `{loser}`"));
        }
        out[l as usize] = w;
    }
    Ok(out)
}

/// The `teams` parameter as lists of 1-based seats.
pub fn team_seats(game: &Game) -> Result<Vec<Vec<i64>>, String> {
    let p = game
        .param("teams")
        .ok_or("aether has no parameter `teams` in game.toml")?;
    let wrong = || "parameter `teams` must be a list of lists of seat numbers".to_string();
    let list = p.value.get_ref().as_array().ok_or_else(wrong)?;
    list.iter()
        .map(|team| {
            team.as_array()
                .ok_or_else(wrong)?
                .iter()
                .map(|s| s.as_integer().ok_or_else(wrong))
                .collect()
        })
        .collect()
}

fn teams(game: &Game) -> Result<Vec<Vec<usize>>, String> {
    team_seats(game)?
        .into_iter()
        .map(|team| {
            team.into_iter()
                .map(|s| {
                    usize::try_from(s - 1)
                        .map_err(|_| format!("`teams` seat {s}: seats count from 1"))
                })
                .collect()
        })
        .collect()
}

/// A list-of-strings parameter.
pub fn param_strs(game: &Game, name: &str) -> Result<Vec<String>, String> {
    let p = game
        .param(name)
        .ok_or_else(|| format!("aether has no parameter `{name}` in game.toml"))?;
    let wrong = || format!("parameter `{name}` must be a list of cell kinds");
    p.value
        .get_ref()
        .as_array()
        .ok_or_else(wrong)?
        .iter()
        .map(|v| v.as_str().map(str::to_string).ok_or_else(wrong))
        .collect()
}

/// The board the game is played on (parameter `board`).
pub fn the_board(game: &Game) -> Result<&Board, String> {
    let id = game.param_str("board")?;
    game.board(id)
        .ok_or_else(|| format!("parameter `board` names `{id}`, which is not a board"))
}

/// Index of each cell's neighbours on the board, in data order.
pub fn neighbour_table(board: &Board) -> Vec<Vec<usize>> {
    let at: std::collections::HashMap<Hex, usize> = board
        .hex_cells()
        .iter()
        .enumerate()
        .map(|(i, c)| (Hex::new(c.q, c.r), i))
        .collect();
    board
        .hex_cells()
        .iter()
        .map(|c| {
            Hex::new(c.q, c.r)
                .all_neighbors()
                .iter()
                .filter_map(|n| at.get(n).copied())
                .collect()
        })
        .collect()
}

fn board_tables(game: &Game, setup: Setup) -> Result<BoardTables, String> {
    let board = the_board(game)?;
    if board.hex_cells().len() >= NONE as usize {
        return Err(format!(
            "the engine handles boards of up to 254 hexes; `{}` has {}",
            board.id.get_ref(),
            board.hex_cells().len()
        ));
    }
    let aether_kind = game.param_str("aether_cell")?;
    let fill = param_strs(game, setup.fill_param())?;
    let mut aether = Vec::new();
    let mut roles = Vec::with_capacity(board.hex_cells().len());
    for (i, cell) in board.hex_cells().iter().enumerate() {
        let role = if cell.kind.get_ref() == aether_kind {
            aether.push(aether_tile(game, cell.piece.as_deref(), i as u8)?);
            CellRole::Aether(aether.len() as u8 - 1)
        } else if fill.contains(cell.kind.get_ref()) {
            CellRole::Filled
        } else {
            CellRole::Playable
        };
        roles.push(role);
    }
    let neighbours = neighbour_table(board)
        .into_iter()
        .map(|ns| {
            let mut row = [NONE; 6];
            for (slot, n) in row.iter_mut().zip(ns) {
                *slot = n as u8;
            }
            row
        })
        .collect();
    let near_aether = board
        .hex_cells()
        .iter()
        .map(|c| {
            let here = Hex::new(c.q, c.r);
            (0..aether.len() as u8)
                .filter(|&i| {
                    let a = &board.hex_cells()[usize::from(aether[usize::from(i)].cell)];
                    here.unsigned_distance_to(Hex::new(a.q, a.r)) <= 2
                })
                .collect()
        })
        .collect();
    Ok(BoardTables {
        near_aether,
        coords: board.hex_cells().iter().map(|c| (c.q, c.r)).collect(),
        roles,
        neighbours,
        aether,
    })
}

fn aether_tile(game: &Game, piece: Option<&str>, cell: u8) -> Result<AetherTile, String> {
    let id = piece.ok_or("an aether position on the board names no aether tile")?;
    let p = game
        .piece(id)
        .filter(|p| p.kind == AETHER_TILE)
        .ok_or_else(|| format!("`{id}` on the board is not an aether tile"))?;
    let value = p
        .int("value")
        .and_then(|v| i32::try_from(v).ok())
        .ok_or_else(|| format!("aether tile `{id}` has no integer `value`"))?;
    Ok(AetherTile {
        cell,
        value,
        piece: id.to_string(),
    })
}

"""dice_seeds and dice_draws: a seed chain per game, and the ranges of each entry's draws

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dice_seeds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("committed_at", sa.DateTime(), nullable=False),
        sa.Column("committed_seq", sa.Integer(), nullable=False),
        sa.Column("revealed_at", sa.DateTime(), nullable=True),
        sa.Column("revealed_seq", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "number"),
    )
    op.create_index(op.f("ix_dice_seeds_game_id"), "dice_seeds", ["game_id"], unique=False)
    op.create_table(
        "dice_draws",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seed_number", sa.Integer(), nullable=False),
        sa.Column("ranges", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seq"),
    )
    op.create_index(op.f("ix_dice_draws_game_id"), "dice_draws", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_dice_draws_game_id"), table_name="dice_draws")
    op.drop_table("dice_draws")
    op.drop_index(op.f("ix_dice_seeds_game_id"), table_name="dice_seeds")
    op.drop_table("dice_seeds")

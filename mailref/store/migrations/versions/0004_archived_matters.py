"""archived matters: ended proposals and judgements out of the hot state

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "archived_matters",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("collection", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("archived_matters", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_archived_matters_game_id"), ["game_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("archived_matters", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_archived_matters_game_id"))
    op.drop_table("archived_matters")

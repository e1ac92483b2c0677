"""inbox (game_slug, received_at) indexed: a deadline reads a game's mail of the last day

Revision ID: 0008
Revises: 0007
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inbox", schema=None) as batch_op:
        batch_op.create_index(
            "ix_inbox_game_slug_received_at", ["game_slug", "received_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("inbox", schema=None) as batch_op:
        batch_op.drop_index("ix_inbox_game_slug_received_at")
